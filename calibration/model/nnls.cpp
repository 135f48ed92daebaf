#include "nnls.hpp"

#include <limits>
#include <vector>

namespace haec::calibration {
namespace {

// The unconstrained least squares on the passive set's columns; the others are 0.
Eigen::VectorXd solve_passive(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, const std::vector<bool>& passive)
{
  std::vector<Eigen::Index> cols;
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    if (passive[static_cast<size_t>(j)])
      cols.push_back(j);
  Eigen::MatrixXd Ap(A.rows(), static_cast<Eigen::Index>(cols.size()));
  for (size_t i = 0; i < cols.size(); ++i)
    Ap.col(static_cast<Eigen::Index>(i)) = A.col(cols[i]);
  const Eigen::VectorXd zp = Ap.colPivHouseholderQr().solve(b);
  Eigen::VectorXd z = Eigen::VectorXd::Zero(A.cols());
  for (size_t i = 0; i < cols.size(); ++i)
    z(cols[i]) = zp(static_cast<Eigen::Index>(i));
  return z;
}

// Inner loop: step from x towards z until every passive variable is positive, dropping those that
// reach zero back to the active set (z is the last passive solution).
Eigen::VectorXd inner_loop(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, Eigen::VectorXd x,
                           std::vector<bool>& passive, double tol)
{
  for (Eigen::Index guard = 0; guard <= A.cols(); ++guard) {
    const Eigen::VectorXd z = solve_passive(A, b, passive);
    double alpha = 1;
    bool feasible = true;
    for (Eigen::Index j = 0; j < A.cols(); ++j)
      if (passive[static_cast<size_t>(j)] && z(j) <= tol) {
        feasible = false;
        alpha    = std::min(alpha, x(j) > z(j) ? x(j) / (x(j) - z(j)) : 0.0);
      }
    if (feasible)
      return z;
    x += alpha * (z - x);
    for (Eigen::Index j = 0; j < A.cols(); ++j)
      if (passive[static_cast<size_t>(j)] && x(j) <= tol) {
        passive[static_cast<size_t>(j)] = false;
        x(j)                            = 0;
      }
  }
  return x;
}

} // namespace

NnlsResult nnls(const Eigen::MatrixXd& A0, const Eigen::VectorXd& b)
{
  const Eigen::Index n = A0.cols();
  Eigen::VectorXd scale(n);
  Eigen::MatrixXd A = A0;
  for (Eigen::Index j = 0; j < n; ++j) {
    scale(j) = A.col(j).norm() > 0 ? A.col(j).norm() : 1;
    A.col(j) /= scale(j);
  }
  const double tol = 10 * std::numeric_limits<double>::epsilon() * static_cast<double>(std::max(A.rows(), n)) *
                     std::max(1.0, A.cwiseAbs().colwise().sum().maxCoeff());
  std::vector<bool> passive(static_cast<size_t>(n), false);
  NnlsResult r{Eigen::VectorXd::Zero(n), false};
  for (Eigen::Index iteration = 0; iteration < 3 * n + 3; ++iteration) {
    const Eigen::VectorXd w = A.transpose() * (b - A * r.x);
    Eigen::Index best = -1;
    for (Eigen::Index j = 0; j < n; ++j)
      if (!passive[static_cast<size_t>(j)] && w(j) > tol && (best < 0 || w(j) > w(best)))
        best = j;
    if (best < 0) {
      r.converged = true;
      break;
    }
    passive[static_cast<size_t>(best)] = true;
    r.x                                = inner_loop(A, b, r.x, passive, tol);
  }
  r.x = r.x.cwiseQuotient(scale);
  return r;
}

} // namespace haec::calibration
