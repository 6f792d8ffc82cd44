// Seeded random queries (random_query.h).
#include "support/random_query.h"

#include <string>
#include <vector>

namespace sluice::test {
namespace {

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

}  // namespace

std::string random_query(rng& random, std::vector<query_step>& steps) {
  std::string text = "$";
  const uint64_t n = random.below(4);
  for (uint64_t k = 0; k < n; ++k) steps.push_back(random_step(random, text));
  return text;
}

}  // namespace sluice::test
