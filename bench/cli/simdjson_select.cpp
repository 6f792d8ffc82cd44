// bench:cli's native peer: simdjson On-Demand 3.9.4 writing each article's raw_json() as a line (--minify: compacted).
#include <cstdio>
#include <string>
#include <string_view>

#include "simdjson.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: simdjson_select FILE [--minify]\n");
    return 2;
  }
  const bool minify = argc > 2 && std::string_view(argv[2]) == "--minify";
  simdjson::padded_string json;
  if (simdjson::padded_string::load(argv[1]).get(json)) {
    std::fprintf(stderr, "simdjson_select: cannot read %s\n", argv[1]);
    return 6;
  }
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  if (parser.iterate(json).get(doc)) return 3;
  simdjson::ondemand::array articles;
  if (doc["_embedded"]["articles"].get_array().get(articles)) return 3;
  static char out[1 << 20];
  std::setvbuf(stdout, out, _IOFBF, sizeof out);
  std::string compact;
  for (auto element : articles) {
    std::string_view raw;
    if (element.raw_json().get(raw)) return 3;
    if (minify) {
      compact.resize(raw.size());
      size_t length = 0;
      if (simdjson::minify(raw.data(), raw.size(), compact.data(), length)) return 3;
      raw = std::string_view(compact.data(), length);
    }
    fwrite_unlocked(raw.data(), 1, raw.size(), stdout);
    fputc_unlocked('\n', stdout);
  }
  return 0;
}
