// Test data on disk: the corpus copies under tests/corpus, located through compile definitions set in
// tests/cpp/support/CMakeLists.txt so that a test binary runs from any working directory.
#ifndef SLUICE_TESTS_SUPPORT_FILES_H
#define SLUICE_TESTS_SUPPORT_FILES_H

#include <string>
#include <vector>

namespace sluice::test {

// The whole file, or "" with *ok = false if it cannot be read.
std::string read_file(const std::string& path, bool* ok = nullptr);

// Names (not paths) of the regular files in `dir` whose name ends with `suffix`, sorted; empty if `dir` is missing.
std::vector<std::string> list_files(const std::string& dir, const std::string& suffix);

// tests/corpus/JSONTestSuite (the test_parsing files), tests/corpus/jsonexamples, tests/README.md.
std::string json_test_suite_dir();
std::string jsonexamples_dir();
std::string tests_readme_path();

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_FILES_H
