#pragma once
// A read-only view of a sequence of doubles, so that plotting and geometry functions accept
// std::vector<double>, Eigen vectors, std::span and brace lists alike. It does not own the data:
// functions taking a ValuesView copy what they keep.
#include <Eigen/Core>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <vector>

namespace gpdp::gis {

class ValuesView {
 public:
  ValuesView(std::span<const double> s) : s_(s) {}     // NOLINT: implicit by design
  ValuesView(const std::vector<double>& v) : s_(v) {}  // NOLINT
  ValuesView(const Eigen::VectorXd& v)                 // NOLINT
      : s_(v.data(), static_cast<std::size_t>(v.size())) {}
  ValuesView(std::initializer_list<double> v) : s_(v.begin(), v.size()) {}  // NOLINT

  std::size_t size() const { return s_.size(); }
  bool empty() const { return s_.empty(); }
  double operator[](std::size_t i) const { return s_[i]; }
  auto begin() const { return s_.begin(); }
  auto end() const { return s_.end(); }
  std::vector<double> to_vector() const { return {s_.begin(), s_.end()}; }

 private:
  std::span<const double> s_;
};

}  // namespace gpdp::gis
