// The bytes of a lazy_index's document. byte_buffer's layout (16 bytes of slack before the data, 80 after, so that
// stage 1 may load a whole block past the end), but reserve() does not zero-fill the data: the caller writes every
// byte of it before build() (lazyParse() copies the document in), and zeroing it first cost as much again as the
// copy (2.3 MB for canada.json). Only the slack, and the bytes right after the data once its size is known, are
// zeroed, so that loads past the end read defined bytes (valgrind, MSan), as with byte_buffer.
#ifndef SLUICE_INTERNAL_LAZY_DOC_BUFFER_H
#define SLUICE_INTERNAL_LAZY_DOC_BUFFER_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace sluice {
namespace internal {

class lazy_doc_buffer {
 public:
  static constexpr size_t front_slack = 16;
  static constexpr size_t back_slack = 80;

  lazy_doc_buffer() = default;
  lazy_doc_buffer(const lazy_doc_buffer&) = delete;
  lazy_doc_buffer& operator=(const lazy_doc_buffer&) = delete;
  ~lazy_doc_buffer() { std::free(raw_); }

  uint8_t* data() noexcept { return raw_ ? raw_ + front_slack : nullptr; }
  const uint8_t* data() const noexcept { return raw_ ? raw_ + front_slack : nullptr; }
  size_t size() const noexcept { return size_; }
  size_t capacity() const noexcept { return capacity_; }
  size_t allocated() const noexcept { return raw_ ? capacity_ + front_slack + back_slack : 0; }

  // Makes capacity() >= n, keeping the contents (exactly n: a document is written once, or grown a few times
  // while a string is encoded into it).
  bool reserve(size_t n) noexcept {
    if (n <= capacity_) return true;
    uint8_t* p = static_cast<uint8_t*>(std::realloc(raw_, n + front_slack + back_slack));
    if (p == nullptr) return false;
    if (raw_ == nullptr) std::memset(p, 0, front_slack);
    std::memset(p + front_slack + n, 0, back_slack);
    raw_ = p;
    capacity_ = n;
    return true;
  }
  // The first n bytes are the document (n <= capacity()); the back_slack bytes after them become zeros.
  void resize_unchecked(size_t n) noexcept {
    size_ = n;
    if (raw_ != nullptr) std::memset(raw_ + front_slack + n, 0, back_slack);
  }

 private:
  uint8_t* raw_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_INTERNAL_LAZY_DOC_BUFFER_H
