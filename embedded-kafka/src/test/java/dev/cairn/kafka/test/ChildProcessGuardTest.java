package dev.cairn.kafka.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChildProcessGuardTest {

    @Test
    void shouldNameAndKillAProcessLeftRunningAfterTheGrace() throws IOException, InterruptedException {
        Set<Long> before = ChildProcessGuard.descendantPids();
        Process leaked = new ProcessBuilder("sh", "-c", "exec sleep 300").start();

        List<String> left = ChildProcessGuard.killLeftovers(before, Duration.ofMillis(200));

        assertThat(left).singleElement().asString().contains("pid " + leaked.pid()).contains("sleep", "300");
        assertThat(leaked.waitFor(10, TimeUnit.SECONDS)).as("the leftover is killed").isTrue();
    }

    @Test
    void shouldNameNothingWhenEveryProcessExitsWithinTheGrace() throws IOException {
        Set<Long> before = ChildProcessGuard.descendantPids();
        new ProcessBuilder("sh", "-c", "exit 0").start();

        assertThat(ChildProcessGuard.killLeftovers(before, Duration.ofSeconds(10))).isEmpty();
    }

    @Test
    void shouldKillTheDescendantsOfALeftoverShellToo() throws IOException, InterruptedException {
        Set<Long> before = ChildProcessGuard.descendantPids();
        Process shell = new ProcessBuilder("sh", "-c", "sleep 300 & wait").start();
        ProcessHandle grandchild = await().atMost(Duration.ofSeconds(10))
                .until(() -> shell.toHandle().children().findFirst().orElse(null), child -> child != null);

        List<String> left = ChildProcessGuard.killLeftovers(before, Duration.ofMillis(200));

        assertThat(left).hasSize(2);
        assertThat(grandchild.onExit().completeOnTimeout(null, 10, TimeUnit.SECONDS).join()).isNotNull();
        assertThat(shell.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
}
