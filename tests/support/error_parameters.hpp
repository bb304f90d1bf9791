#pragma once
// The parameters a request reader's error names (Error::parameters()), for the request tests of
// the declared commands; a test failure when the reader accepts the request.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/error.hpp"

namespace gpdp::test {

template <class Read>
std::vector<std::string> parameters_of_error(Read read, const nlohmann::json& request) {
  try {
    read(request);
  } catch (const Error& e) {
    return e.parameters();
  }
  ADD_FAILURE() << "accepted " << request.dump();
  return {};
}

}  // namespace gpdp::test
