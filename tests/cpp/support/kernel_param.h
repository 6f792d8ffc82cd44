// Every correctness suite runs once per stage-1 kernel, and its test names say which (`.../best`, `.../scalar`).
#ifndef SLUICE_TESTS_SUPPORT_KERNEL_PARAM_H
#define SLUICE_TESTS_SUPPORT_KERNEL_PARAM_H

#include <gtest/gtest.h>

#include <string>

#include "sluice/options.h"

namespace sluice::test {

inline const char* kernel_name(kernel_kind kernel) { return kernel == kernel_kind::scalar ? "scalar" : "best"; }

inline auto all_kernels() { return ::testing::Values(kernel_kind::best, kernel_kind::scalar); }

struct kernel_param_name {
  std::string operator()(const ::testing::TestParamInfo<kernel_kind>& info) const { return kernel_name(info.param); }
};

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_KERNEL_PARAM_H
