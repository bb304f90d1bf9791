#include "arrays.hpp"

#include <algorithm>
#include <cstring>

namespace gpdp::python {

py::array as_float64(const py::handle& obj, const std::string& name) {
  if (py::isinstance<py::array>(obj)) {
    auto a = py::reinterpret_borrow<py::array>(obj);
    if (!a.dtype().is(py::dtype::of<double>())) {
      throw py::type_error(name + " must be a float64 array, got dtype " +
                           std::string(py::str(a.dtype())) + " (convert with " + name +
                           ".astype(numpy.float64))");
    }
    return a;
  }
  try {
    return py::array_t<double, py::array::forcecast>::ensure(obj);
  } catch (const py::error_already_set&) {
  }
  throw py::type_error(name + " must be a float64 array or a sequence of numbers, got " +
                       std::string(py::str(py::type::of(obj).attr("__name__"))));
}

PointsView points_view(const py::handle& obj, const std::string& name, int dim) {
  py::array a = as_float64(obj, name);
  if (!a) throw py::type_error(name + " must be a float64 array");
  if (a.ndim() != 1 && a.ndim() != 2) {
    throw py::value_error(name + " must be 2-D (m, d) or 1-D (m,) for d = 1, got " +
                          std::to_string(a.ndim()) + "-D");
  }
  const bool was_1d = a.ndim() == 1;
  const Eigen::Index rows = a.shape(0);
  const Eigen::Index cols = was_1d ? 1 : a.shape(1);
  if (cols < 1) throw py::value_error(name + " has 0 columns: each point needs d ≥ 1 coordinates");
  if (dim > 0 && cols != dim) {
    throw py::value_error(name + " has " + std::to_string(cols) +
                          " column(s) but the data have d = " + std::to_string(dim));
  }
  const auto item = static_cast<Eigen::Index>(sizeof(double));
  for (py::ssize_t k = 0; k < a.ndim(); ++k) {
    if (a.strides(k) % item != 0)
      throw py::value_error(name + " is not aligned to 8-byte elements");
  }
  const Eigen::Index row_stride = a.strides(0) / item;
  const Eigen::Index col_stride = was_1d ? 1 : a.strides(1) / item;
  // Eigen's Stride<outer, inner> for a column-major map: inner = between rows, outer = between
  // columns.
  ConstStridedMap map(static_cast<const double*>(a.data()), rows, cols,
                      Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(col_stride, row_stride));
  return PointsView{std::move(a), map, was_1d};
}

Points to_points(const py::handle& obj, const std::string& name, int dim) {
  return Points(points_view(obj, name, dim).map);
}

Eigen::VectorXd to_vector(const py::handle& obj, const std::string& name, Eigen::Index length) {
  py::array a = as_float64(obj, name);
  if (a.ndim() != 1) {
    throw py::value_error(name + " must be 1-D, got " + std::to_string(a.ndim()) +
                          "-D with shape " + std::string(py::str(py::tuple(a.attr("shape")))));
  }
  if (length >= 0 && a.shape(0) != length) {
    throw py::value_error(name + " must have length " + std::to_string(length) + ", got " +
                          std::to_string(a.shape(0)));
  }
  const Eigen::Index stride = a.strides(0) / static_cast<Eigen::Index>(sizeof(double));
  return Eigen::Map<const Eigen::VectorXd, 0, Eigen::InnerStride<>>(
      static_cast<const double*>(a.data()), a.shape(0), Eigen::InnerStride<>(stride));
}

py::array_t<double> blockwise(const PointsView& xs, Eigen::Index n_train,
                              const std::function<Eigen::VectorXd(const Points&)>& f) {
  const Eigen::Index m = xs.map.rows();
  const Eigen::Index width = std::max<Eigen::Index>({n_train, xs.map.cols(), 1});
  const Eigen::Index block = std::max<Eigen::Index>(256, kBlockDoubles / width);
  py::array_t<double> out(static_cast<py::ssize_t>(m));
  double* dst = out.mutable_data();
  Points chunk;
  for (Eigen::Index start = 0; start < m; start += block) {
    const Eigen::Index rows = std::min(block, m - start);
    chunk = xs.map.middleRows(start, rows);
    Eigen::VectorXd values;
    {
      py::gil_scoped_release release;
      values = f(chunk);
    }
    std::memcpy(dst + start, values.data(), static_cast<std::size_t>(rows) * sizeof(double));
  }
  return out;
}

py::array_t<double> to_numpy(const Eigen::VectorXd& v) {
  py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
  std::memcpy(out.mutable_data(), v.data(), static_cast<std::size_t>(v.size()) * sizeof(double));
  return out;
}

py::array_t<double> to_numpy(const Eigen::MatrixXd& m) {
  // Fortran order: the Eigen (column-major) buffer is copied as is.
  py::array_t<double, py::array::f_style> out({m.rows(), m.cols()});
  std::memcpy(out.mutable_data(), m.data(), static_cast<std::size_t>(m.size()) * sizeof(double));
  return out;
}

}  // namespace gpdp::python
