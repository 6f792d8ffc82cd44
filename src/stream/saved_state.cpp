#include "stream/saved_state.h"

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "scan/bits.h"
#include "util/zeroed.h"

namespace sluice {
namespace internal {

namespace {

static_assert(std::is_trivially_copyable<parser_scalars>::value, "a saved parser copies its scalars as bytes");

constexpr uint32_t magic = 0x32504c53;  // "SLP2"

class writer {
 public:
  explicit writer(byte_buffer& out) : out_(out) { out_.clear(); }
  bool ok() const { return ok_; }
  // Out of line: inlined at each field a save writes, the buffer's growth made 0.4 kB of each page's module
  // (gzip); a parser is saved only when a 65th becomes resident, where one call per field costs nothing measurable.
  __attribute__((noinline)) void bytes(const void* p, size_t n) {
    if (ok_ && !out_.append(static_cast<const uint8_t*>(p), n)) ok_ = false;
  }
  template <class T>
  void value(const T& v) {
    bytes(&v, sizeof(T));
  }

 private:
  byte_buffer& out_;
  bool ok_ = true;
};

class reader {
 public:
  reader(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}
  bool ok() const { return ok_; }
  bool done() const { return ok_ && p_ == end_; }
  const uint8_t* bytes(size_t n) {
    if (!ok_ || size_t(end_ - p_) < n) {
      ok_ = false;
      return nullptr;
    }
    const uint8_t* at = p_;
    p_ += n;
    return at;
  }
  template <class T>
  T value() {
    T v{};
    if (const uint8_t* at = bytes(sizeof(T))) std::memcpy(&v, at, sizeof(T));
    return v;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

}  // namespace

SLUICE_SMALL bool save_state(const parser_state& st, byte_buffer& out) noexcept {
  writer w(out);
  w.value(magic);
  w.value(uint32_t(sizeof(parser_scalars)));
  w.bytes(static_cast<const parser_scalars*>(&st), sizeof(parser_scalars));
  w.bytes(st.open.data(), st.open_count * sizeof(open_element));
  const selector_set& sel = st.selectors;
  w.value(uint32_t(sel.paths.size()));
  w.value(sel.markers);
  w.value(sel.start_markers);
  for (const selector& s : sel.paths) {
    w.value(uint32_t(s.steps.size()));
    for (const step& t : s.steps) {
      w.value(uint8_t(t.kind));
      w.value(uint8_t(t.descendant));
      w.value(t.index);
      w.value(t.end);
      w.value(t.stride);
      w.value(uint32_t(t.name.size()));
      w.bytes(t.name.data(), t.name.size());
    }
    w.value(uint32_t(s.filter.source.size()));
    w.bytes(s.filter.source.data(), s.filter.source.size());
  }
  if (st.compiled) {
    // The selectors' state along the path (as deep as the stacks reach), and a bit per container down to the
    // current depth.
    w.value(sel.live_len);
    w.bytes(sel.cand_at.data(), sel.cand_at.size() * sizeof(uint32_t));
    w.bytes(sel.index_at.data(), sel.index_at.size() * sizeof(uint64_t));
    w.bytes(sel.pos_at.data(), sel.pos_at.size() * sizeof(uint64_t));
    const uint32_t words = st.depth / 64 + 1;
    w.value(words);
    w.bytes(st.is_object.data(), words * sizeof(uint64_t));
  }
  w.value(uint32_t(st.key_carry.size()));
  w.bytes(st.key_carry.data(), st.key_carry.size());
  w.value(uint32_t(st.filter_carry.size()));
  w.bytes(st.filter_carry.data(), st.filter_carry.size());
  return w.ok();
}

SLUICE_SMALL parser_state* load_state(const uint8_t* p, size_t n, workspace& shared) noexcept {
  reader r(p, n);
  if (r.value<uint32_t>() != magic) return nullptr;
  const uint32_t scalars = r.value<uint32_t>();
  const uint8_t* saved = r.bytes(scalars);
  if (saved == nullptr || scalars != sizeof(parser_scalars)) return nullptr;
  std::unique_ptr<parser_state> st(new (std::nothrow) parser_state(shared));
  if (!st) return nullptr;
  std::memcpy(static_cast<parser_scalars*>(st.get()), saved, scalars);
  // At most one open element per open container and the root.
  if (st->open_count > st->options.max_depth + 1) return nullptr;
  const uint8_t* open = r.bytes(size_t(st->open_count) * sizeof(open_element));
  if (open == nullptr || !st->open.assign_zero(st->open_count > max_selectors ? st->open_count : max_selectors))
    return nullptr;
  if (st->open_count != 0) std::memcpy(st->open.data(), open, st->open_count * sizeof(open_element));
  selector_set& sel = st->selectors;
  const uint32_t paths = r.value<uint32_t>();
  sel.markers = r.value<uint32_t>();
  sel.start_markers = r.value<uint32_t>();
  if (paths > max_selectors) return nullptr;
  sel.paths.resize(paths);
  for (selector& s : sel.paths) {
    const uint32_t steps = r.value<uint32_t>();
    if (!r.ok() || steps > n) return nullptr;
    // push_back, not resize(): the parser's grammar instantiates the one already (resize() cost 1.2 kB of module).
    for (uint32_t k = 0; k < steps; ++k) {
      step t{};
      const uint8_t kind = r.value<uint8_t>();
      if (kind > step::slice) return nullptr;
      t.kind = step::kind_t(kind);
      t.descendant = r.value<uint8_t>() != 0;
      t.index = r.value<uint64_t>();
      t.end = r.value<uint64_t>();
      t.stride = r.value<uint64_t>();
      const uint32_t size = r.value<uint32_t>();
      const uint8_t* name = r.bytes(size);
      if (name == nullptr) return nullptr;
      t.name.assign(reinterpret_cast<const char*>(name), size);
      s.steps.push_back(std::move(t));
    }
    const uint32_t filter_size = r.value<uint32_t>();
    const uint8_t* filter = r.bytes(filter_size);
    if (filter == nullptr) return nullptr;
    if (filter_size != 0 &&
        !s.filter.compile(std::string_view(reinterpret_cast<const char*>(filter), filter_size), nullptr))
      return nullptr;
  }
  uint32_t positions = 0;
  for (const selector& s : sel.paths)
    if (s.has_descendant()) positions += uint32_t(s.steps.size());
  if (positions > max_positions) return nullptr;
  if (st->compiled) {
    sel.compile(st->options.ndjson);
    const uint32_t live_len = r.value<uint32_t>();
    // The tables reach one past the deepest value (descend() at a scalar at max_depth) or a linear path's length,
    // which max_depth does not bound.
    const uint32_t deepest = sel.max_len > st->options.max_depth + 1 ? sel.max_len : st->options.max_depth + 1;
    if (!r.ok() || live_len < sel.max_len || live_len > deepest) return nullptr;
    if (live_len > sel.live_len) sel.reach(live_len);
    const uint8_t* cand = r.bytes(sel.cand_at.size() * sizeof(uint32_t));
    const uint8_t* index = r.bytes(sel.index_at.size() * sizeof(uint64_t));
    const uint8_t* pos = r.bytes(sel.pos_at.size() * sizeof(uint64_t));
    const uint32_t words = r.value<uint32_t>();
    const uint8_t* bits = r.bytes(size_t(words) * sizeof(uint64_t));
    if (bits == nullptr || words != st->depth / 64 + 1 || st->depth > st->options.max_depth) return nullptr;
    std::memcpy(sel.cand_at.data(), cand, sel.cand_at.size() * sizeof(uint32_t));
    std::memcpy(sel.index_at.data(), index, sel.index_at.size() * sizeof(uint64_t));
    std::memcpy(sel.pos_at.data(), pos, sel.pos_at.size() * sizeof(uint64_t));
    assign_zeroed(st->is_object, st->options.max_depth / 64 + 1);
    std::memcpy(st->is_object.data(), bits, words * sizeof(uint64_t));
  }
  const uint32_t key = r.value<uint32_t>();
  const uint8_t* key_bytes = r.bytes(key);
  if (key_bytes == nullptr || !st->key_carry.append(key_bytes, key)) return nullptr;
  const uint32_t kept = r.value<uint32_t>();
  const uint8_t* filter_bytes = r.bytes(kept);
  if (filter_bytes == nullptr || !r.done() || !st->filter_carry.append(filter_bytes, kept)) return nullptr;
  return st.release();
}

}  // namespace internal
}  // namespace sluice
