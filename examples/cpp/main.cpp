// Steps the murmuration on the CPU and prints the flock's measures as it forms.
//   murmuration_measures [BOIDS] [STEPS]
#include <cstdio>
#include <cstdlib>
#include <exception>

#include <murmur/murmur.hpp>

int main(int argc, char** argv) {
  murmur::Options options;
  options.backend = murmur::Backend::Cpu;
  options.boids = argc > 1 ? std::atoll(argv[1]) : 2000;
  const long steps = argc > 2 ? std::atol(argv[2]) : 200;
  try {
    auto sim = murmur::Simulation::fromScene("murmuration", options);
    std::printf("%zu birds on %s, K = %g\n", sim.size(), sim.device().c_str(),
                sim.param("perception.neighbours"));
    for (long done = 0; done < steps; done += 50) {
      sim.step(50);
      const murmur::Measures m = sim.measure();
      std::printf("t = %5.1f s | largest flock %5.1f%% | polarization %.3f | thinness %.2f\n", sim.time(),
                  100.0 * m.largestFraction, m.polarization, m.thinness);
    }
  } catch (const murmur::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 3;
  }
  return 0;
}
