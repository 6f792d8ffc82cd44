// The oracle's DOM and its evaluation (descendant_oracle.h says what it encodes).
#include "support/descendant_oracle.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "support/reference_splitter.h"

namespace sluice::test {
namespace {

struct node {
  size_t start = 0, end = 0;  // its bytes in the input
  key_kind key = key_kind::none;
  std::string raw_key;  // key == name: quotes included
  std::string name;     // ...decoded
  uint64_t index = 0;   // key == index
  bool object = false, array = false;
  std::vector<node> children;
};

// Parses valid JSON text (as random_json writes it) into nodes; a BOM and whitespace are skipped.
struct dom_parser {
  std::string_view s;
  size_t i = 0;

  void blanks() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  size_t string_end(size_t q) {  // q: the opening quote
    size_t j = q + 1;
    while (s[j] != '"') j += s[j] == '\\' ? 2 : 1;
    return j + 1;
  }
  node value() {
    blanks();
    node n;
    n.start = i;
    const char c = s[i];
    if (c == '{' || c == '[') {
      n.object = c == '{';
      n.array = !n.object;
      ++i;
      blanks();
      const char close = n.object ? '}' : ']';
      while (s[i] != close) {
        std::string raw;
        if (n.object) {
          const size_t k = i;
          i = string_end(i);
          raw.assign(s.substr(k, i - k));
          blanks();
          ++i;  // the colon
        }
        node child = value();
        if (n.object) {
          child.key = key_kind::name;
          child.raw_key = raw;
          child.name = decode_json_string(raw);
        } else {
          child.key = key_kind::index;
          child.index = n.children.size();
        }
        n.children.push_back(std::move(child));
        blanks();
        if (s[i] == ',') ++i;
        blanks();
      }
      ++i;
    } else if (c == '"') {
      i = string_end(i);
    } else {
      while (i < s.size() && std::strchr(",]} \t\n\r\"[{", s[i]) == nullptr) ++i;
    }
    n.end = i;
    return n;
  }
};

std::vector<node> parse_dom(std::string_view text, bool ndjson) {
  dom_parser p{text};
  if (text.substr(0, 3) == "\xEF\xBB\xBF") p.i = 3;
  std::vector<node> roots;
  for (;;) {
    p.blanks();
    if (p.i >= text.size()) break;
    roots.push_back(p.value());
    if (ndjson) {
      roots.back().key = key_kind::index;
      roots.back().index = roots.size() - 1;
    }
  }
  return roots;
}

bool selects(const query_step& q, const node& child) {
  switch (q.kind) {
    case query_step::by_name:
      return child.key == key_kind::name && child.name == q.name;
    case query_step::wildcard:
      return true;
    case query_step::index:
      return child.key == key_kind::index && child.index == q.start;
    case query_step::slice:
      return child.key == key_kind::index && q.stride != 0 && child.index >= q.start && child.index < q.end &&
             (child.index - q.start) % q.stride == 0;
  }
  return false;
}

void with_descendants(const node* n, std::vector<const node*>& out) {
  out.push_back(n);
  for (const node& c : n->children) with_descendants(&c, out);
}

// RFC 9535 §2.5: each segment applied to every node of the list in turn; the nodes delivered once each.
std::vector<const node*> evaluate(const node& root, const std::vector<query_step>& steps) {
  std::vector<const node*> list{&root};
  for (const query_step& q : steps) {
    std::vector<const node*> next;
    std::set<const node*> seen;
    for (const node* n : list) {
      std::vector<const node*> visited;
      if (q.descendant) {
        with_descendants(n, visited);
      } else {
        visited.push_back(n);
      }
      for (const node* v : visited)
        for (const node& c : v->children)
          if (selects(q, c) && seen.insert(&c).second) next.push_back(&c);
    }
    list = std::move(next);
  }
  return list;
}

}  // namespace

// The elements the parser must report: per value, one per selector in selector order, values by their end.
std::vector<collected_element> expected_elements(std::string_view text, bool ndjson,
                                                 const std::vector<std::vector<query_step>>& queries) {
  const std::vector<node> roots = parse_dom(text, ndjson);
  struct hit {
    size_t end;
    uint32_t path;
    const node* n;
  };
  std::vector<hit> hits;
  for (const node& root : roots)
    for (uint32_t p = 0; p < queries.size(); ++p)
      for (const node* n : evaluate(root, queries[p])) hits.push_back({n->end, p, n});
  std::sort(hits.begin(), hits.end(),
            [](const hit& a, const hit& b) { return a.end != b.end ? a.end < b.end : a.path < b.path; });
  std::vector<collected_element> out;
  for (const hit& h : hits) {
    collected_element e;
    e.bytes.assign(text.substr(h.n->start, h.n->end - h.n->start));
    e.path_index = h.path;
    e.key = h.n->key;
    e.key_bytes = h.n->raw_key;
    e.index = h.n->index;
    out.push_back(e);
  }
  return out;
}

std::vector<query_step> steps_of(std::string_view path) {
  std::vector<query_step> steps;
  size_t i = 1;
  while (i < path.size()) {
    query_step q;
    if (path.substr(i, 2) == "..") {
      q.descendant = true;
      i += 2;
    } else if (path[i] == '.') {
      ++i;
    }
    if (path[i] == '*') {
      ++i;
    } else if (path[i] == '[') {
      const size_t close = path.find(']', i);
      const std::string inner(path.substr(i + 1, close - i - 1));
      i = close + 1;
      if (inner == "*") {
      } else if (inner[0] == '\'' || inner[0] == '"') {
        q.kind = query_step::by_name;
        q.name = inner.substr(1, inner.size() - 2);
      } else if (inner.find(':') == std::string::npos) {
        q.kind = query_step::index;
        q.start = std::stoull(inner);
      } else {
        q.kind = query_step::slice;
        const size_t c1 = inner.find(':'), c2 = inner.find(':', c1 + 1);
        const std::string a = inner.substr(0, c1);
        const std::string b = inner.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
        const std::string c = c2 == std::string::npos ? "" : inner.substr(c2 + 1);
        if (!a.empty()) q.start = std::stoull(a);
        if (!b.empty()) q.end = std::stoull(b);
        if (!c.empty()) q.stride = std::stoull(c);
      }
    } else {
      const size_t from = i;
      while (i < path.size() && path[i] != '.' && path[i] != '[') ++i;
      q.kind = query_step::by_name;
      q.name.assign(path.substr(from, i - from));
    }
    steps.push_back(q);
  }
  return steps;
}

std::vector<collected_element> oracle(std::string_view input, const std::vector<std::string>& paths, bool ndjson) {
  std::vector<std::vector<query_step>> queries;
  for (const std::string& p : paths) queries.push_back(steps_of(p));
  return expected_elements(input, ndjson, queries);
}

}  // namespace sluice::test
