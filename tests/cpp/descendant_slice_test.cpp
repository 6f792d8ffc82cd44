// RFC 9535 descendant segments (`..`) and slices, streamed: every node a query selects is delivered once, when its
// last byte arrives, whatever the chunking. Checked against an oracle that is the RFC's definition applied to a
// small DOM (each segment maps a nodelist to the next; `..` visits the input node and all its descendants), on
// seeded random documents and random queries mixing linear and descendant selectors, and by hand on the corners.
// Soak: SLUICE_RANDOM_DOCS=... SLUICE_TEST_SEED=...
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "sluice/push_parser.h"
#include "support/binding_client.h"
#include "support/collect.h"
#include "support/kernel_param.h"
#include "support/random_json.h"
#include "support/reference_splitter.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

// MARK: the oracle's DOM

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

// MARK: queries

struct query_step {
  bool descendant = false;
  enum { by_name, wildcard, index, slice } kind = wildcard;
  std::string name;  // decoded
  uint64_t start = 0, end = ~uint64_t{0}, stride = 1;
};

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

// One random step and its text in one of its spellings.
query_step random_step(rng& random, std::string& text) {
  query_step q;
  q.descendant = random.below(2) == 0;
  const char* const names[] = {"a", "b", "c", "__proto__"};
  switch (random.below(4)) {
    case 0: {
      q.kind = query_step::by_name;
      q.name = names[random.below(4)];
      const int form = int(random.below(4));
      text += q.descendant ? ".." : "";
      if (form == 0) {
        text += (q.descendant ? "" : ".") + q.name;
      } else if (form == 1) {
        text += "['" + q.name + "']";
      } else if (form == 2) {
        text += "[ \"" + q.name + "\" ]";
      } else {
        text += "['\\u00" + std::string(1, "0123456789abcdef"[q.name[0] >> 4]) +
                std::string(1, "0123456789abcdef"[q.name[0] & 15]) + q.name.substr(1) + "']";
      }
      break;
    }
    case 1:
      q.kind = query_step::wildcard;
      text += q.descendant ? (random.below(2) ? "..*" : "..[*]") : (random.below(2) ? ".*" : "[*]");
      break;
    case 2:
      q.kind = query_step::index;
      q.start = random.below(4);
      text += (q.descendant ? "..[" : "[") + std::to_string(q.start) + "]";
      break;
    default: {
      q.kind = query_step::slice;
      std::string s = q.descendant ? "..[" : "[";
      if (random.below(3) != 0) {
        q.start = random.below(4);
        s += std::to_string(q.start);
      }
      s += random.below(2) ? " : " : ":";
      if (random.below(2) != 0) {
        q.end = random.below(6);
        s += std::to_string(q.end);
      }
      if (random.below(2) != 0) {
        s += ":";
        if (random.below(3) != 0) {
          q.stride = random.below(4);
          s += std::to_string(q.stride);
        }
      }
      text += s + "]";
      break;
    }
  }
  return q;
}

std::string random_query(rng& random, std::vector<query_step>& steps) {
  std::string text = "$";
  const uint64_t n = random.below(4);
  for (uint64_t k = 0; k < n; ++k) steps.push_back(random_step(random, text));
  return text;
}

// A document dense in containers and in the names the queries ask for (random_json's are mostly long strings),
// its scalars sometimes random_json's, for the escapes and the long strings.
void random_tree(rng& random, size_t depth, std::string& out) {
  const char* const blanks[] = {"", "", " ", "\n  ", "\t"};
  const char* const keys[] = {"\"a\"", "\"b\"", "\"c\"", "\"\\u0061\"", "\"__proto__\"", "\"a\\\"b\"", "\"x\""};
  const uint64_t pick = depth == 0 ? 5 : random.below(6);
  if (pick < 4) {
    const bool object = pick < 2;
    out += object ? '{' : '[';
    const uint64_t n = random.below(6);
    for (uint64_t k = 0; k < n; ++k) {
      if (k != 0) out += ',';
      out += blanks[random.below(5)];
      if (object) {
        out += keys[random.below(7)];
        out += ':';
      }
      random_tree(random, depth - 1, out);
    }
    out += blanks[random.below(5)];
    out += object ? '}' : ']';
    return;
  }
  json_shape scalar;
  scalar.root = root_kind::scalar;
  const char* const plain[] = {"1", "-2.5e3", "true", "null", "\"s\"", "\"\""};
  if (random.below(4) != 0) {
    out += plain[random.below(6)];
    return;
  }
  const std::string value = random_json(random, scalar);
  out += value.substr(value.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0);  // no BOM inside a document
}

// MARK: the tests

class DescendantSlice : public ::testing::TestWithParam<kernel_kind> {
 protected:
  parse_setup setup(std::vector<std::string> paths, bool ndjson = false) const {
    parse_setup s;
    s.options.kernel = GetParam();
    s.options.ndjson = ndjson;
    s.paths = std::move(paths);
    return s;
  }
};

// Every chunking gives the oracle's elements; `what` names the case in failures.
void expect_selection(std::string_view input, const parse_setup& s, const std::vector<collected_element>& expected,
                      rng& random, const std::string& what) {
  const std::vector<std::vector<size_t>> chunkings = {chunks_one_shot(input.size()), chunks_bytewise(input.size()),
                                                      chunks_random(input.size(), random, 97)};
  for (size_t k = 0; k < chunkings.size(); ++k) {
    const parse_outcome got = parse_chunked(input, s, chunkings[k]);
    ASSERT_TRUE(got.paths_ok) << what;
    ASSERT_EQ(got.status, error_code::ok) << what << " chunking " << k << ": " << describe(got.error);
    ASSERT_EQ(describe_difference(expected, got.elements), "") << what << " chunking " << k;
  }
  // As the binding drives it: saved and restored before every call.
  const parse_outcome bound = parse_chunked_like_binding(input, s, chunks_random(input.size(), random, 200));
  ASSERT_EQ(bound.status, error_code::ok) << what << ": " << describe(bound.error);
  ASSERT_EQ(bound.batch_problem, "") << what;
  ASSERT_EQ(describe_difference(expected, bound.elements), "") << what << " (binding)";
}

std::vector<query_step> steps_of(std::string_view path) {
  std::vector<query_step> steps;
  // Hand-written queries in the tests below use these forms only.
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

std::vector<collected_element> oracle(std::string_view input, const std::vector<std::string>& paths,
                                      bool ndjson = false) {
  std::vector<std::vector<query_step>> queries;
  for (const std::string& p : paths) queries.push_back(steps_of(p));
  return expected_elements(input, ndjson, queries);
}

std::vector<std::string> bytes_of(const std::vector<collected_element>& elements) {
  std::vector<std::string> out;
  for (const collected_element& e : elements) out.push_back(e.bytes + "#" + std::to_string(e.path_index));
  return out;
}

TEST_P(DescendantSlice, HandWrittenCases) {
  rng random(base_seed());
  const struct {
    const char* doc;
    std::vector<std::string> paths;
    std::vector<std::string> expect;  // bytes#selector in arrival order
  } cases[] = {
      {R"({"a":{"a":1},"b":[{"a":2}]})", {"$..a"}, {"1#0", R"({"a":1}#0)", "2#0"}},
      {R"([[1,2],[3]])", {"$..[0]"}, {"1#0", "[1,2]#0", "3#0"}},
      {R"({"x":[[5,6],7],"y":[8]})", {"$.x..[0]"}, {"5#0", "[5,6]#0"}},
      {R"({"a":[1,{"b":2}]})", {"$..*"}, {"1#0", "2#0", R"({"b":2}#0)", R"([1,{"b":2}]#0)"}},
      {R"([0,1,2,3,4,5,6])",
       {"$[1:5:2]", "$[::3]", "$[5:]", "$[:1]", "$[1:5:0]", "$[4:2]"},
       {"0#1", "0#3", "1#0", "3#0", "3#1", "5#2", "6#1", "6#2"}},
      // One node, delivered once, though two `..` reach it twice (RFC 9535 would list it twice).
      {R"({"a":{"a":{"b":1}}})", {"$..a..b"}, {"1#0"}},
      // Linear and descendant selectors together, on the same values.
      {R"({"rows":[{"id":1},{"id":2,"k":{"id":3}}]})",
       {"$.rows[*]", "$..id"},
       {"1#1", R"({"id":1}#0)", "2#1", "3#1", R"({"id":2,"k":{"id":3}}#0)"}},
      {R"({"a":{"b":{"a":{"b":1}}}})", {"$..a.b", "$.a.b"}, {"1#0", R"({"a":{"b":1}}#0)", R"({"a":{"b":1}}#1)"}},
      {R"([{"a":[1,2,3]},{"a":[4]}])", {"$..a[1:]"}, {"2#0", "3#0"}},
      {R"({"a":1})", {"$..['a']", "$..[\"a\"]", "$..[*]"}, {"1#0", "1#1", "1#2"}},
      {R"([1])", {"$..a", "$.a..b"}, {}},
  };
  for (const auto& c : cases) {
    const parse_setup s = setup(c.paths);
    const std::vector<collected_element> expected = oracle(c.doc, c.paths);
    ASSERT_EQ(bytes_of(expected), c.expect) << c.doc << " (the oracle)";
    expect_selection(c.doc, s, expected, random, c.doc);
  }
}

TEST_P(DescendantSlice, RandomDocumentsAndQueries) {
  const uint64_t seed0 = base_seed() ^ 0xD35C;
  const uint64_t docs = env_count("SLUICE_RANDOM_DOCS", 150);
  uint64_t selected = 0;
  for (uint64_t k = 0; k < docs; ++k) {
    rng random(seed0 + k);
    json_shape shape;
    shape.max_nesting = 1 + random.below(12);
    shape.max_bytes = 200 + random.below(1500);
    shape.root = random.below(4) == 0 ? root_kind::any : random.below(2) ? root_kind::object : root_kind::array;
    shape.fill = random.below(3) == 0;
    const bool ndjson = random.below(5) == 0;
    std::string input;
    if (random.below(3) == 0) {
      input = ndjson ? random_ndjson(random, 1 + random.below(4), shape) : random_json(random, shape);
    } else {
      const uint64_t values = ndjson ? 1 + random.below(4) : 1;
      for (uint64_t v = 0; v < values; ++v) {
        std::string value;
        while (value.size() < 30) {  // mostly containers, not a lone scalar
          value.clear();
          random_tree(random, 2 + random.below(6), value);
        }
        input += value + (ndjson ? "\n" : "");
      }
    }
    std::vector<std::vector<query_step>> queries(1 + random.below(3));
    std::vector<std::string> paths;
    for (auto& q : queries) paths.push_back(random_query(random, q));
    const std::vector<collected_element> expected = expected_elements(input, ndjson, queries);
    std::string what = "seed " + std::to_string(seed0 + k) + " paths";
    for (const std::string& p : paths) what += " " + p;
    expect_selection(input, setup(paths, ndjson), expected, random, what);
    selected += expected.size();
    if (HasFatalFailure()) return;
  }
  // The queries select something (the generator is not so strict that every answer is empty).
  EXPECT_GT(selected, docs * 4);
}

// `$..*` opens an element in every container down a deep nest: the stacks grow to the depth, and the elements
// arrive innermost first.
TEST_P(DescendantSlice, DeepNesting) {
  rng random(base_seed());
  const size_t depth = 3000;
  std::string doc;
  for (size_t d = 0; d < depth; ++d) doc += "{\"a\":[";
  doc += "1";
  for (size_t d = 0; d < depth; ++d) doc += "]}";
  for (const char* path : {"$..*", "$..a[0]", "$..a..a[0]"}) {
    parse_setup s = setup({path});
    s.options.max_depth = 2 * depth + 1;
    const std::vector<collected_element> expected = oracle(doc, {path});
    const parse_outcome got = parse_chunked(doc, s, chunks_random(doc.size(), random, 300));
    ASSERT_EQ(got.status, error_code::ok) << path << ": " << describe(got.error);
    EXPECT_EQ(describe_difference(expected, got.elements), "") << path;
    const std::string p = path;
    EXPECT_EQ(got.elements.size(), p == "$..*" ? 2 * depth : p == "$..a[0]" ? depth : depth - 1) << path;
    // Saved and restored before every call: thousands of open elements, and stacks grown past the tables.
    const parse_outcome bound = parse_chunked_like_binding(doc, s, chunks_random(doc.size(), random, 3000));
    ASSERT_EQ(bound.status, error_code::ok) << path << ": " << describe(bound.error);
    EXPECT_EQ(bound.batch_problem, "") << path;
    EXPECT_EQ(describe_difference(expected, bound.elements), "") << path << " (binding)";
  }
  // One level too deep: the depth limit, where the bracket opens.
  parse_setup s = setup({"$..a"});
  s.options.max_depth = 2 * depth - 1;
  const parse_outcome got = parse_one_shot(doc, s);
  EXPECT_EQ(got.status, error_code::depth_limit);
  EXPECT_EQ(got.error.offset, 6 * (depth - 1) + 5);
}

// The size limit counts from the outermost open element: a selected container bigger than the limit fails, though
// everything in it is small.
TEST_P(DescendantSlice, ElementSizeLimit) {
  const std::string doc = R"({"a":{"b":[1,2,3,4,5,6,7,8,9]},"c":{"a":1}})";
  parse_setup s = setup({"$..a"});
  s.options.max_element_bytes = 20;
  parse_outcome got = parse_one_shot(doc, s);
  EXPECT_EQ(got.status, error_code::element_too_large);
  s.paths = {"$..b[3:]"};
  got = parse_one_shot(doc, s);
  ASSERT_EQ(got.status, error_code::ok) << describe(got.error);
  EXPECT_EQ(bytes_of(got.elements), (std::vector<std::string>{"4#0", "5#0", "6#0", "7#0", "8#0", "9#0"}));
}

// NDJSON and skip_invalid: a bad line drops what was open in it, and the next line starts the automaton again.
TEST_P(DescendantSlice, NdjsonSkipInvalid) {
  const std::string input = "{\"a\":{\"a\":1}}\n{\"a\":[{\"a\":\n{\"b\":{\"a\":3}}\n";
  parse_setup s = setup({"$..a"}, true);
  s.options.skip_invalid = true;
  for (const auto& chunks : {chunks_one_shot(input.size()), chunks_bytewise(input.size())}) {
    const parse_outcome got = parse_chunked(input, s, chunks);
    ASSERT_EQ(got.status, error_code::ok) << describe(got.error);
    EXPECT_EQ(bytes_of(got.elements), (std::vector<std::string>{"1#0", "{\"a\":1}#0", "3#0"}));
  }
}

// A marker selector with a descendant segment: a record of size 0 where each match ends.
TEST_P(DescendantSlice, MarkerPaths) {
  push_parser parser(setup({}).options);
  ASSERT_TRUE(parser.add_path("$..b"));
  ASSERT_TRUE(parser.add_marker_path("$..a"));
  const std::string doc = R"({"a":{"b":1,"a":[2]}})";
  std::vector<std::string> got;
  const auto take = [&] {
    for (size_t i = 0; i < parser.element_count(); ++i) {
      const element& e = parser.elements()[i];
      got.push_back(std::to_string(e.size) + "#" + std::to_string(e.path_index));
    }
  };
  ASSERT_TRUE(parser.reserve(doc.size()));
  std::memcpy(parser.input_data(), doc.data(), doc.size());
  ASSERT_EQ(parser.feed(doc.size()), error_code::ok);
  take();
  ASSERT_EQ(parser.finish(), error_code::ok);
  take();
  EXPECT_EQ(got, (std::vector<std::string>{"1#0", "0#1", "0#1"}));
}

// The position budget: 64 steps of descendant selectors in all, then the path is refused as over budget.
TEST_P(DescendantSlice, PositionBudget) {
  push_parser parser(setup({}).options);
  std::string eight = "$";
  for (int k = 0; k < 8; ++k) eight += "..a";
  for (int k = 0; k < 8; ++k) ASSERT_TRUE(parser.add_path(eight)) << k;
  size_t error_at = 0;
  EXPECT_FALSE(parser.add_path("$..a", &error_at));
  EXPECT_EQ(error_at, size_t(-1));
  EXPECT_TRUE(parser.add_path("$.a.a.a.a.a.a.a.a.a")) << "linear selectors take no positions";
}

INSTANTIATE_TEST_SUITE_P(Kernels, DescendantSlice, all_kernels(), kernel_param_name());

}  // namespace
}  // namespace sluice::test
