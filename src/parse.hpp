#pragma once
// Strict number parsing: the whole field must be a finite number, or InputError names `what`.
#include <string>
#include <string_view>

namespace gpdp {

double parse_double(std::string_view text, const std::string& what);
long long parse_integer(std::string_view text, const std::string& what);

}  // namespace gpdp
