// Growable buffers on malloc/realloc, so that running out of memory is an error code rather than an abort (the
// core is built without exceptions). Both keep slack around the data: 16 bytes before it and 80 after, so stage 1
// may load a whole 64-byte block past the end of the data, and a batch may write '[' before and ']' after an
// element in place.
#ifndef SLUICE_UTIL_BUFFERS_H
#define SLUICE_UTIL_BUFFERS_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

namespace sluice {
namespace internal {

class byte_buffer {
 public:
  static constexpr size_t front_slack = 16;
  static constexpr size_t back_slack = 80;

  byte_buffer() = default;
  byte_buffer(const byte_buffer&) = delete;
  byte_buffer& operator=(const byte_buffer&) = delete;
  ~byte_buffer() { std::free(raw_); }

  uint8_t* data() noexcept { return raw_ ? raw_ + front_slack : nullptr; }
  const uint8_t* data() const noexcept { return raw_ ? raw_ + front_slack : nullptr; }
  size_t size() const noexcept { return size_; }
  size_t capacity() const noexcept { return capacity_; }
  size_t allocated() const noexcept { return raw_ ? capacity_ + front_slack + back_slack : 0; }

  // Makes capacity() >= n, keeping the contents. Grows by at least half, so appends are amortised O(1) per byte.
  bool reserve(size_t n) noexcept { return n <= capacity_ || grow(n); }
  bool append(const uint8_t* p, size_t n) noexcept {
    if (!reserve(size_ + n)) return false;
    if (n != 0) std::memcpy(data() + size_, p, n);
    size_ += n;
    return true;
  }
  void push_back_unchecked(uint8_t b) noexcept { data()[size_++] = b; }
  void append_unchecked(const uint8_t* p, size_t n) noexcept {
    std::memcpy(data() + size_, p, n);
    size_ += n;
  }
  void resize_unchecked(size_t n) noexcept { size_ = n; }
  void clear() noexcept { size_ = 0; }

  // For a buffer the caller fills whole before reading it (lazyParse's document, where zeroing it first cost as
  // much again as the copy: 2.3 MB for canada.json): grows to exactly n without zeroing the data, only the slack.
  bool reserve_uninitialized(size_t n) noexcept {
    if (n <= capacity_) return true;
    uint8_t* p = static_cast<uint8_t*>(std::realloc(raw_, n + front_slack + back_slack));
    if (p == nullptr) return false;
    if (raw_ == nullptr) std::memset(p, 0, front_slack);
    std::memset(p + front_slack + n, 0, back_slack);
    raw_ = p;
    capacity_ = n;
    return true;
  }
  // The first n bytes (n <= capacity()) are the data; the back_slack bytes after them become zeros, so that loads
  // past the end read defined bytes after reserve_uninitialized.
  void resize_zero_tail(size_t n) noexcept {
    size_ = n;
    if (raw_ != nullptr) std::memset(raw_ + front_slack + n, 0, back_slack);
  }
  void release() noexcept {
    std::free(raw_);
    raw_ = nullptr;
    size_ = capacity_ = 0;
  }
  void swap(byte_buffer& other) noexcept {
    std::swap(raw_, other.raw_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

 private:
  // Out of line: the callers' hot loops carry only the capacity check (less code for V8 to compile).
  __attribute__((noinline)) bool grow(size_t n) noexcept {
    size_t grown = capacity_ + capacity_ / 2;
    if (grown < n) grown = n;
    uint8_t* p = static_cast<uint8_t*>(std::realloc(raw_, grown + front_slack + back_slack));
    if (p == nullptr) return false;
    // Zero the new tail and slack: loads past the data then read defined bytes (valgrind, MSan).
    std::memset(p + front_slack + capacity_, 0, grown - capacity_ + back_slack);
    if (raw_ == nullptr) std::memset(p, 0, front_slack);
    raw_ = p;
    capacity_ = grown;
    return true;
  }

  uint8_t* raw_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// A vector of trivially copyable records whose growth can fail softly.
template <class T>
class pod_vector {
  static_assert(std::is_trivially_copyable<T>::value, "pod_vector holds plain records");

 public:
  pod_vector() = default;
  pod_vector(const pod_vector&) = delete;
  pod_vector& operator=(const pod_vector&) = delete;
  ~pod_vector() { std::free(data_); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  size_t size() const noexcept { return size_; }
  size_t allocated() const noexcept { return capacity_ * sizeof(T); }
  T& operator[](size_t i) noexcept { return data_[i]; }
  const T& operator[](size_t i) const noexcept { return data_[i]; }
  T& back() noexcept { return data_[size_ - 1]; }

  bool reserve(size_t n) noexcept { return n <= capacity_ || grow(n); }
  // Sets size n; new records are zeroed.
  bool assign_zero(size_t n) noexcept {
    if (!reserve(n)) return false;
    if (n != 0) std::memset(static_cast<void*>(data_), 0, n * sizeof(T));
    size_ = n;
    return true;
  }
  bool push_back(const T& v) noexcept {
    if (size_ == capacity_ && !reserve(size_ + 1)) return false;
    data_[size_++] = v;
    return true;
  }
  void pop_back() noexcept { --size_; }
  void clear() noexcept { size_ = 0; }

 private:
  // Out of line: the callers' hot loops carry only the capacity check (less code for V8 to compile).
  __attribute__((noinline)) bool grow(size_t n) noexcept {
    size_t grown = capacity_ * 2;
    if (grown < n) grown = n;
    if (grown < 16) grown = 16;
    T* p = static_cast<T*>(std::realloc(data_, grown * sizeof(T)));
    if (p == nullptr) return false;
    data_ = p;
    capacity_ = grown;
    return true;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_UTIL_BUFFERS_H
