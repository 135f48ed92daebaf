// Non-negative least squares: x = argmin |A x - b|^2 subject to x >= 0, by Lawson and Hanson's
// active-set algorithm (Solving Least Squares Problems, 1974, ch. 23). Eigen 3.4 as packaged by
// Debian 12 has no NNLS module (unsupported/Eigen/NNLS came with Eigen 3.4.90), hence this one.
// Pure C++ (Eigen only).
#pragma once
#include <Eigen/Dense>

namespace haec::calibration {

struct NnlsResult {
  Eigen::VectorXd x;
  bool converged = false; // false: the iteration limit (3 n outer steps) was hit
};

// Columns are scaled to unit norm inside (rates of 1e9 events/s next to a column of ones), so the
// result does not depend on the columns' units. A column of zeros gets x = 0.
NnlsResult nnls(const Eigen::MatrixXd& A, const Eigen::VectorXd& b);

} // namespace haec::calibration
