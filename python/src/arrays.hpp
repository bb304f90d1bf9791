#pragma once
// NumPy <-> Eigen for the bindings. Inputs are validated here with messages that name the argument
// (TypeError for a wrong dtype, ValueError for a wrong shape). Query points are read IN PLACE
// through a strided view (C- or F-contiguous or sliced float64 arrays: no copy of the array);
// the library's Points are dense Eigen matrices, so queries are evaluated in row blocks that are
// copied one at a time (at most kBlockDoubles doubles live at once, whatever the number of points).
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <functional>
#include <string>

#include "gpdp/kernel.hpp"

namespace gpdp::python {

namespace py = pybind11;

// A read-only strided view of a float64 array (rows x cols), no copy.
using ConstStridedMap =
    Eigen::Map<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;

struct PointsView {
  py::array owner;  // keeps the NumPy buffer alive
  ConstStridedMap map;
  bool was_1d;
};

// Block size of blockwise evaluation: about 8 MiB of doubles, including the block x n cross-kernel.
inline constexpr Eigen::Index kBlockDoubles = Eigen::Index{1} << 20;

// `obj` as a float64 ndarray: ndarrays of another dtype are refused (TypeError naming `name`);
// lists, tuples and scalars are converted.
py::array as_float64(const py::handle& obj, const std::string& name);

// Points: 2-D (m, d), or 1-D (m,) meaning d = 1. `dim` > 0 requires that many columns.
PointsView points_view(const py::handle& obj, const std::string& name, int dim = 0);
// The same, copied into the library's dense Points.
Points to_points(const py::handle& obj, const std::string& name, int dim = 0);
// A 1-D float64 vector of length `length` (< 0: any), copied.
Eigen::VectorXd to_vector(const py::handle& obj, const std::string& name, Eigen::Index length = -1);

// out(i) = f(rows i of xs) evaluated in row blocks of the view; returns a new 1-D float64 array.
py::array_t<double> blockwise(const PointsView& xs, Eigen::Index n_train,
                              const std::function<Eigen::VectorXd(const Points&)>& f);

// Column vector / matrix -> new NumPy array (owns a copy of the Eigen data).
py::array_t<double> to_numpy(const Eigen::VectorXd& v);
py::array_t<double> to_numpy(const Eigen::MatrixXd& m);

}  // namespace gpdp::python
