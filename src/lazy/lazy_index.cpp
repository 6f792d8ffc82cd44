// lazy_index (sluice/lazy_index.h): the scanning templates instantiated for the build's best kernel and the scalar
// one, and the parts that need no kernel.
#include "sluice/lazy_index.h"

#include <cstring>
#include <new>

#include "kernels/best_kernel.h"
#include "kernels/scalar/simd.h"
#include "lazy/lazy_enumerate.h"
#include "lazy/lazy_skeleton.h"
#include "lazy/lazy_validate.h"
#include "scan/json_string.h"
#include "sluice/limits.h"

namespace sluice {

using internal::lazy_state;

namespace {

// Larger documents do not fit the u32 offsets of lazy_child (nor a wasm32 heap).
constexpr uint64_t max_document = (uint64_t{1} << 32) - 2;

#ifdef SLUICE_ONE_KERNEL
// The wasm lazy module (wasm/CMakeLists.txt) scans with its build's kernel only: nothing there asks for the other.
bool scalar_kernel(const lazy_options&) { return false; }
#else
bool scalar_kernel(const lazy_options& o) { return o.kernel == kernel_kind::scalar; }
#endif

}  // namespace

// MARK: lazy_index

lazy_index::lazy_index(const lazy_options& options) : state_(new (std::nothrow) lazy_state) {
  if (state_ == nullptr) return;
  lazy_options o = options;
  if (o.max_depth < 1) o.max_depth = 1;
  if (o.max_depth > max_depth_limit) o.max_depth = max_depth_limit;
  state_->options = o;
}

lazy_index::~lazy_index() {
  if (state_ == nullptr) return;
  for (size_t i = 0; i < state_->tables.size(); ++i) std::free(state_->tables[i]);
  delete state_;
}

uint8_t* lazy_index::reserve(size_t n) {
  if (state_ == nullptr || uint64_t(n) > max_document || !state_->doc.reserve_uninitialized(n)) return nullptr;
  return state_->doc.data();
}

error_code lazy_index::build(size_t n) {
  if (state_ == nullptr) return error_code::out_of_memory;
  lazy_state& st = *state_;
  st.error = parse_error{};
  if (n > st.doc.capacity()) {
    st.error = parse_error{error_code::out_of_memory, 0, 1, 1, -1};
    return st.error.code;
  }
  st.doc.resize_zero_tail(n);
  const bool ok = scalar_kernel(st.options) ? internal::build_skeleton<scalar::kernel>(st)
                                            : internal::build_skeleton<internal::best_kernel>(st);
  // A scalar root is validated whole (it is read at once anyway); a broken structure is reported as the parser
  // reports it, which may be an earlier error of another kind.
  if (!ok || st.root_container == lazy_no_container) {
    st.error = internal::validate_range(st.doc.data(), 0, n, st.options.max_depth, st.options.kernel,
                                        ok ? error_code::ok : error_code::out_of_memory);
  }
  return st.error.code;
}

uint32_t lazy_index::root_start() const noexcept { return state_ ? state_->root_start : 0; }
uint32_t lazy_index::root_end() const noexcept { return state_ ? state_->root_end : 0; }
uint32_t lazy_index::root_container() const noexcept { return state_ ? state_->root_container : lazy_no_container; }
uint32_t lazy_index::container_count() const noexcept { return state_ ? uint32_t(state_->containers.size()) : 0; }
const lazy_container* lazy_index::container_table() const noexcept {
  return state_ != nullptr && state_->containers.size() != 0 ? state_->containers.data() : nullptr;
}

const lazy_child* lazy_index::list(uint32_t c, uint32_t* count) {
  *count = 0;
  if (state_ == nullptr) return nullptr;
  lazy_state& st = *state_;
  if (c >= st.containers.size()) return nullptr;
  const bool ok = scalar_kernel(st.options) ? internal::enumerate_members<scalar::kernel>(st, c)
                                            : internal::enumerate_members<internal::best_kernel>(st, c);
  if (!ok) {
    const internal::lazy_container& box = st.containers[c];
    st.error = internal::validate_range(st.doc.data(), box.start, uint64_t(box.end) + 1, st.options.max_depth,
                                        st.options.kernel, error_code::out_of_memory);
    return nullptr;
  }
  *count = uint32_t(st.scratch.size());
  // A distinct, non-null address for an empty container too.
  return st.scratch.size() != 0 || st.scratch.reserve(1) ? st.scratch.data() : nullptr;
}

const lazy_child* lazy_index::children(uint32_t c, uint32_t* count) {
  if (list(c, count) == nullptr) return nullptr;
  lazy_state& st = *state_;
  const size_t n = st.scratch.size();
  // At least one record, so that an empty container still gets a distinct, non-null table.
  const size_t bytes = (n == 0 ? 1 : n) * sizeof(lazy_child);
  lazy_child* table = static_cast<lazy_child*>(std::malloc(bytes));
  if (table == nullptr || !st.tables.push_back(table)) {
    std::free(table);
    st.error = parse_error{error_code::out_of_memory, st.containers[c].start, 1, 1, -1};
    return nullptr;
  }
  if (n != 0) std::memcpy(table, st.scratch.data(), n * sizeof(lazy_child));
  st.table_bytes += bytes;
  *count = uint32_t(n);
  return table;
}

int64_t lazy_index::find(const lazy_child* table, uint32_t count, const uint8_t* key, size_t n, bool first) {
  if (state_ == nullptr) return -1;
  lazy_state& st = *state_;
  const uint8_t* d = st.doc.data();
  // A raw key as long as `key` has no escape if it matches (an escape would make it decode shorter), so equal
  // bytes are a match unless they hold a backslash, which then is an escape in the raw key: no match.
  const bool key_has_backslash = n != 0 && std::memchr(key, '\\', n) != nullptr;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t i = first ? k : count - 1 - k;
    const uint8_t* raw = d + table[i].key_start + 1;
    const size_t raw_n = table[i].key_end - table[i].key_start - 2;
    // Escapes only shorten a key, so a raw key shorter than `key` cannot match.
    if (raw_n < n) continue;
    if (raw_n == n) {
      if (!key_has_backslash && std::memcmp(raw, key, n) == 0) return i;
      continue;
    }
    // Longer: only an escaped key can match, and the bytes before its first escape are the key's own. Most keys
    // differ in their first byte: no scan for a backslash then.
    if (n == 0 || (raw[0] != '\\' && raw[0] != key[0])) continue;
    if (std::memchr(raw, '\\', raw_n) == nullptr) continue;
    st.key_scratch.clear();
    internal::unescape_json_string(raw, raw_n, st.key_scratch);
    if (st.key_scratch.size() == n && std::memcmp(st.key_scratch.data(), key, n) == 0) return i;
  }
  return -1;
}

const uint8_t* lazy_index::keys_text(const lazy_child* table, uint32_t count, size_t* size) {
  *size = 0;
  if (state_ == nullptr) return nullptr;
  lazy_state& st = *state_;
  size_t total = 2 + count;
  for (uint32_t i = 0; i < count; ++i) total += table[i].key_end - table[i].key_start;
  st.text.clear();
  if (!st.text.reserve(total)) return nullptr;
  const uint8_t* d = st.doc.data();
  st.text.push_back_unchecked('[');
  for (uint32_t i = 0; i < count; ++i) {
    if (i != 0) st.text.push_back_unchecked(',');
    st.text.append_unchecked(d + table[i].key_start, table[i].key_end - table[i].key_start);
  }
  st.text.push_back_unchecked(']');
  *size = st.text.size();
  return st.text.data();
}

const uint8_t* lazy_index::values_text(const lazy_child* table, uint32_t from, uint32_t to, uint32_t max_bytes,
                                       size_t* size) {
  *size = 0;
  if (state_ == nullptr || from > to) return nullptr;
  lazy_state& st = *state_;
  const auto skipped = [&](const lazy_child& c) {
    return c.container != lazy_no_container && c.value_end - c.value_start > max_bytes;
  };
  size_t total = 2 + (to - from);
  for (uint32_t i = from; i < to; ++i) total += skipped(table[i]) ? 1 : table[i].value_end - table[i].value_start;
  st.text.clear();
  if (!st.text.reserve(total)) return nullptr;
  const uint8_t* d = st.doc.data();
  st.text.push_back_unchecked('[');
  for (uint32_t i = from; i < to; ++i) {
    if (i != from) st.text.push_back_unchecked(',');
    if (skipped(table[i])) {
      st.text.push_back_unchecked('0');
    } else {
      st.text.append_unchecked(d + table[i].value_start, table[i].value_end - table[i].value_start);
    }
  }
  st.text.push_back_unchecked(']');
  *size = st.text.size();
  return st.text.data();
}

error_code lazy_index::locate(uint32_t start, uint32_t end) {
  if (state_ == nullptr) return error_code::out_of_memory;
  lazy_state& st = *state_;
  if (end > st.doc.size() || start > end) return error_code::ok;
  st.error =
      internal::validate_range(st.doc.data(), start, end, st.options.max_depth, st.options.kernel, error_code::ok);
  return st.error.code;
}

const parse_error& lazy_index::error() const noexcept {
  static const parse_error oom{error_code::out_of_memory, 0, 1, 1, -1};
  return state_ ? state_->error : oom;
}

const uint8_t* lazy_index::data() const noexcept { return state_ ? state_->doc.data() : nullptr; }
size_t lazy_index::size() const noexcept { return state_ ? state_->doc.size() : 0; }

size_t lazy_index::memory_bytes() const noexcept {
  if (state_ == nullptr) return 0;
  const lazy_state& st = *state_;
  return sizeof(lazy_state) + st.doc.allocated() + st.containers.allocated() + st.tables.allocated() + st.table_bytes +
         st.scratch.allocated() + st.text.allocated();
}

}  // namespace sluice
