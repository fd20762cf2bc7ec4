//! A small CMA-ES (Hansen's (μ/μ_w, λ) evolution strategy with rank-one and rank-μ covariance
//! updates and cumulative step-size adaptation; "The CMA Evolution Strategy: A Tutorial", 2016)
//! over the unit cube. Derivative-free and robust to the noise a simulated objective keeps even
//! with common random numbers; a generation's λ candidates are independent, so they are
//! evaluated in parallel. Points leaving the cube are reflected back into it.

use toml::Table;

use crate::generate::SplitMix64;
use crate::keys::Reader;

/// How a search by CMA-ES is set, as a study's `[design]` and a calibration file give it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSettings {
    /// Candidates a generation (λ).
    pub population: usize,
    /// The first step, as a share of each parameter's range (σ on the unit cube).
    pub step: f64,
}

impl SearchSettings {
    /// `population` (2–1000; Hansen's default 4 + ⌊3 ln n⌋ for n parameters) and `step`
    /// (0.0001–1; 0.25) from `table`, whose keys sit under `prefix`.
    pub fn read(r: &mut Reader, table: &Table, prefix: &str, parameters: usize) -> SearchSettings {
        let default = 4 + (3.0 * (parameters.max(1) as f64).ln()).floor() as u64;
        SearchSettings {
            population: r
                .whole(table, prefix, "population", (2, 1000))
                .unwrap_or(default) as usize,
            step: r.number(table, prefix, "step", (1e-4, 1.0)).unwrap_or(0.25),
        }
    }
}

/// The strategy's state.
pub struct Cmaes {
    n: usize,
    lambda: usize,
    weights: Vec<f64>,
    mu_eff: f64,
    c_sigma: f64,
    d_sigma: f64,
    c_c: f64,
    c_1: f64,
    c_mu: f64,
    chi_n: f64,
    mean: Vec<f64>,
    sigma: f64,
    /// Covariance, row-major n × n, with its eigen-decomposition C = B diag(d²) Bᵀ.
    c: Vec<f64>,
    b: Vec<f64>,
    d: Vec<f64>,
    p_sigma: Vec<f64>,
    p_c: Vec<f64>,
    generation: u32,
    rng: SplitMix64,
}

impl Cmaes {
    /// Starts at `mean` (in the unit cube) with step `sigma` and `lambda` candidates a generation.
    pub fn new(mean: Vec<f64>, sigma: f64, lambda: usize, seed: u64) -> Cmaes {
        let n = mean.len();
        let lambda = lambda.max(2);
        let mu = lambda / 2;
        let raw: Vec<f64> = (0..mu)
            .map(|i| ((mu as f64) + 0.5).ln() - ((i + 1) as f64).ln())
            .collect();
        let total: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / total).collect();
        let mu_eff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let nf = n as f64;
        let c_sigma = (mu_eff + 2.0) / (nf + mu_eff + 5.0);
        let d_sigma = 1.0 + 2.0 * (((mu_eff - 1.0) / (nf + 1.0)).sqrt() - 1.0).max(0.0) + c_sigma;
        let c_c = (4.0 + mu_eff / nf) / (nf + 4.0 + 2.0 * mu_eff / nf);
        let c_1 = 2.0 / ((nf + 1.3).powi(2) + mu_eff);
        let c_mu =
            (1.0 - c_1).min(2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((nf + 2.0).powi(2) + mu_eff));
        let chi_n = nf.sqrt() * (1.0 - 1.0 / (4.0 * nf) + 1.0 / (21.0 * nf * nf));
        let mut identity = vec![0.0; n * n];
        for i in 0..n {
            identity[i * n + i] = 1.0;
        }
        Cmaes {
            n,
            lambda,
            weights,
            mu_eff,
            c_sigma,
            d_sigma,
            c_c,
            c_1,
            c_mu,
            chi_n,
            mean,
            sigma,
            c: identity.clone(),
            b: identity,
            d: vec![1.0; n],
            p_sigma: vec![0.0; n],
            p_c: vec![0.0; n],
            generation: 0,
            rng: SplitMix64::new(seed),
        }
    }

    pub fn lambda(&self) -> usize {
        self.lambda
    }

    /// The next generation's λ candidates, in the unit cube.
    pub fn ask(&mut self) -> Vec<Vec<f64>> {
        let n = self.n;
        (0..self.lambda)
            .map(|_| {
                let z: Vec<f64> = (0..n).map(|_| self.rng.normal()).collect();
                (0..n)
                    .map(|i| {
                        let y: f64 = (0..n).map(|j| self.b[i * n + j] * self.d[j] * z[j]).sum();
                        reflect(self.mean[i] + self.sigma * y)
                    })
                    .collect()
            })
            .collect()
    }

    /// The search's loop: generation after generation while a whole one fits in `budget`
    /// evaluations, `spent` of them already used; `evaluate(generation, candidates)` gives each
    /// generation's values (numbered from 1), lower being better.
    pub fn minimise<E>(
        &mut self,
        budget: usize,
        spent: usize,
        mut evaluate: impl FnMut(u32, &[Vec<f64>]) -> Result<Vec<f64>, E>,
    ) -> Result<(), E> {
        let mut used = spent;
        let mut generation = 0;
        while used + self.lambda <= budget {
            generation += 1;
            let candidates = self.ask();
            let values = evaluate(generation, &candidates)?;
            used += candidates.len();
            self.tell(&candidates, &values);
        }
        Ok(())
    }

    /// Updates the distribution from the candidates `ask` gave and their values (lower is better).
    pub fn tell(&mut self, candidates: &[Vec<f64>], values: &[f64]) {
        let n = self.n;
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
        let old = self.mean.clone();
        let steps: Vec<Vec<f64>> = order
            .iter()
            .take(self.weights.len())
            .map(|&k| {
                (0..n)
                    .map(|i| (candidates[k][i] - old[i]) / self.sigma)
                    .collect()
            })
            .collect();
        let mut y_w = vec![0.0; n];
        for (w, y) in self.weights.iter().zip(&steps) {
            for i in 0..n {
                y_w[i] += w * y[i];
            }
        }
        for i in 0..n {
            self.mean[i] = old[i] + self.sigma * y_w[i];
        }
        // C^(−1/2) y_w = B diag(1/d) Bᵀ y_w.
        let bt_y: Vec<f64> = (0..n)
            .map(|j| (0..n).map(|i| self.b[i * n + j] * y_w[i]).sum::<f64>() / self.d[j])
            .collect();
        let whitened: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| self.b[i * n + j] * bt_y[j]).sum())
            .collect();
        let cs = (self.c_sigma * (2.0 - self.c_sigma) * self.mu_eff).sqrt();
        for (p, w) in self.p_sigma.iter_mut().zip(&whitened) {
            *p = (1.0 - self.c_sigma) * *p + cs * w;
        }
        self.generation += 1;
        let norm = self.p_sigma.iter().map(|p| p * p).sum::<f64>().sqrt();
        let decay = 1.0 - (1.0 - self.c_sigma).powi(2 * self.generation as i32);
        let h_sigma = norm / decay.sqrt() < (1.4 + 2.0 / (n as f64 + 1.0)) * self.chi_n;
        let cc = (self.c_c * (2.0 - self.c_c) * self.mu_eff).sqrt();
        for (p, y) in self.p_c.iter_mut().zip(&y_w) {
            *p = (1.0 - self.c_c) * *p + f64::from(u8::from(h_sigma)) * cc * y;
        }
        let correction = if h_sigma {
            0.0
        } else {
            self.c_c * (2.0 - self.c_c)
        };
        for i in 0..n {
            for j in 0..n {
                let rank_mu: f64 = self
                    .weights
                    .iter()
                    .zip(&steps)
                    .map(|(w, y)| w * y[i] * y[j])
                    .sum();
                let at = i * n + j;
                self.c[at] = (1.0 - self.c_1 - self.c_mu) * self.c[at]
                    + self.c_1 * (self.p_c[i] * self.p_c[j] + correction * self.c[at])
                    + self.c_mu * rank_mu;
            }
        }
        self.sigma *= ((self.c_sigma / self.d_sigma) * (norm / self.chi_n - 1.0)).exp();
        // A step wider than the cube is no use.
        self.sigma = self.sigma.min(1.0);
        let (b, eigenvalues) = jacobi_eigen(&self.c, n);
        self.b = b;
        self.d = eigenvalues.iter().map(|e| e.max(1e-20).sqrt()).collect();
    }
}

/// Reflects a coordinate into [0, 1].
fn reflect(x: f64) -> f64 {
    let x = x.rem_euclid(2.0);
    if x > 1.0 {
        2.0 - x
    } else {
        x
    }
}

/// Eigenvectors (columns of the returned row-major matrix) and eigenvalues of a symmetric matrix,
/// by cyclic Jacobi rotations: exact enough and simple for the few dimensions calibrated.
fn jacobi_eigen(matrix: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut a = matrix.to_vec();
    // Keep it exactly symmetric.
    for i in 0..n {
        for j in 0..i {
            let m = 0.5 * (a[i * n + j] + a[j * n + i]);
            a[i * n + j] = m;
            a[j * n + i] = m;
        }
    }
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    for _ in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j] * a[i * n + j])
            .sum();
        if off < 1e-30 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq.abs() < 1e-300 {
                    continue;
                }
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    let eigenvalues = (0..n).map(|i| a[i * n + i]).collect();
    (v, eigenvalues)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the strategy for `evaluations` evaluations of `f`; the best value and point seen.
    fn minimise(
        f: &dyn Fn(&[f64]) -> f64,
        start: Vec<f64>,
        evaluations: usize,
        seed: u64,
    ) -> (f64, Vec<f64>) {
        let mut es = Cmaes::new(start.clone(), 0.3, 8, seed);
        let mut best = (f(&start), start);
        let generations = es.minimise(evaluations, 1, |_, candidates| {
            let values: Vec<f64> = candidates.iter().map(|x| f(x)).collect();
            for (x, v) in candidates.iter().zip(&values) {
                if *v < best.0 {
                    best = (*v, x.clone());
                }
            }
            Ok::<_, ()>(values)
        });
        generations.unwrap();
        best
    }

    #[test]
    fn it_finds_the_bottom_of_a_shifted_sphere() {
        let target = [0.2, 0.7, 0.4, 0.9, 0.35];
        let sphere = |x: &[f64]| {
            x.iter()
                .zip(&target)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
        };
        let (value, point) = minimise(&sphere, vec![0.5; 5], 800, 1);
        assert!(value < 1e-6, "{value} at {point:?}");
    }

    #[test]
    fn it_follows_a_curved_valley() {
        // Rosenbrock in the cube: the minimum is at (0.6, 0.6) after the shift and scaling.
        let valley = |x: &[f64]| {
            let (a, b) = (5.0 * x[0] - 2.0, 5.0 * x[1] - 2.0);
            (1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2)
        };
        let (value, point) = minimise(&valley, vec![0.1, 0.9], 2000, 3);
        assert!(value < 1e-4, "{value} at {point:?}");
    }

    #[test]
    fn the_same_seed_gives_the_same_search() {
        let f = |x: &[f64]| (x[0] - 0.3).abs() + (x[1] - 0.8).powi(2);
        let a = minimise(&f, vec![0.5, 0.5], 200, 9);
        let b = minimise(&f, vec![0.5, 0.5], 200, 9);
        assert_eq!(a, b);
        let c = minimise(&f, vec![0.5, 0.5], 200, 10);
        assert_ne!(a.1, c.1);
    }

    #[test]
    fn eigenvectors_diagonalise_a_symmetric_matrix() {
        let m = [4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 1.0];
        let (v, e) = jacobi_eigen(&m, 3);
        for k in 0..3 {
            for i in 0..3 {
                let mv: f64 = (0..3).map(|j| m[i * 3 + j] * v[j * 3 + k]).sum();
                assert!((mv - e[k] * v[i * 3 + k]).abs() < 1e-9);
            }
        }
        assert!(reflect(1.2) == 0.8 && reflect(-0.25) == 0.25 && reflect(0.5) == 0.5);
    }
}
