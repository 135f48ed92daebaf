/* `smpirun` for the ASan build (built static by cmake/Sanitizers.cmake into build-asan/sanitizers/).
 * Tests run `LD_PRELOAD=<build>/lib/libhaec_suite.so smpirun ...`; an ASan-instrumented library
 * preloaded into a program without the ASan runtime crashes it at start (measured: SIGSEGV in
 * libns3-core's initialiser, even with verify_asan_link_order=0), and smpirun is a shell script.
 * A static program ignores LD_PRELOAD: move it aside and run smpirun-asan.sh, which hands it to
 * the simulator behind the ASan runtime. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  (void)argc;
  const char* pre = getenv("LD_PRELOAD");
  setenv("HAEC_CALLER_PRELOAD", pre ? pre : "", 1);
  unsetenv("LD_PRELOAD");
  setenv("HAEC_ASAN_RUNTIME", HAEC_SANITIZER_PRELOAD, 0); /* the runtime this build was made with */
  argv[0] = (char*)HAEC_SMPIRUN_ASAN_SCRIPT;
  execv(HAEC_SMPIRUN_ASAN_SCRIPT, argv);
  perror(HAEC_SMPIRUN_ASAN_SCRIPT);
  return 127;
}
