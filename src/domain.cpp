#include "gpdp/domain.hpp"

#include <fmt/format.h>

#include <sstream>
#include <vector>

#include "gpdp/error.hpp"
#include "parse.hpp"

namespace gpdp {

Box::Box(Eigen::VectorXd lower, Eigen::VectorXd upper)
    : lower_(std::move(lower)), upper_(std::move(upper)) {
  require(lower_.size() > 0 && lower_.size() == upper_.size(),
          "domain: lower and upper corners must have the same, positive dimension");
  for (Eigen::Index i = 0; i < lower_.size(); ++i) {
    require(std::isfinite(lower_[i]) && std::isfinite(upper_[i]) && lower_[i] < upper_[i],
            fmt::format("domain: dimension {} needs finite lo < hi, got {}:{}", i + 1, lower_[i],
                        upper_[i]));
  }
}

Box Box::unit(int dim) { return Box(Eigen::VectorXd::Zero(dim), Eigen::VectorXd::Ones(dim)); }

Box Box::parse(const std::string& text) {
  std::vector<double> lo, hi;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    const auto colon = part.find(':');
    require_parameter(
        colon != std::string::npos, "domain",
        fmt::format("domain '{}': each dimension must be lo:hi, got '{}'", text, part));
    lo.push_back(parse_double(part.substr(0, colon), "domain lower bound"));
    hi.push_back(parse_double(part.substr(colon + 1), "domain upper bound"));
  }
  require_parameter(!lo.empty(), "domain", fmt::format("domain '{}' is empty", text));
  return Box(Eigen::Map<Eigen::VectorXd>(lo.data(), static_cast<Eigen::Index>(lo.size())),
             Eigen::Map<Eigen::VectorXd>(hi.data(), static_cast<Eigen::Index>(hi.size())));
}

double Box::diameter() const { return (upper_ - lower_).norm(); }

bool Box::contains(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  if (x.size() != lower_.size()) return false;
  return ((x.array() >= lower_.array()) && (x.array() <= upper_.array())).all();
}

std::string Box::to_string() const {
  std::string s;
  for (int i = 0; i < dim(); ++i) {
    if (i) s += ",";
    s += fmt::format("{}:{}", lower_[i], upper_[i]);
  }
  return s;
}

}  // namespace gpdp
