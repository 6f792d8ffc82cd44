#include "support/files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace sluice::test {

std::string read_file(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  if (ok != nullptr) *ok = static_cast<bool>(in);
  if (!in) return {};
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> list_files(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string json_test_suite_dir() { return SLUICE_JSON_TEST_SUITE_DIR; }
std::string jsonexamples_dir() { return SLUICE_JSONEXAMPLES_DIR; }
std::string tests_readme_path() { return SLUICE_TESTS_README; }

}  // namespace sluice::test
