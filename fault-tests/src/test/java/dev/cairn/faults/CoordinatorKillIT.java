package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The short version of the SIGKILL campaign, in the default build: a broker process, one coordinator process
 * and two jobs with real sidecars; the coordinator is SIGKILLed twice and restarted at once. The invariants
 * must hold exactly. The recovery bound here guards against a return to the 45 s session timeout; the 5 s
 * target of issue 7 is not met yet (see the README's reliability section) and is checked by the campaign in
 * the {@code faults} profile.
 */
class CoordinatorKillIT {

    @Test
    void shouldKeepEveryInvariantAndTriggerAgainWellBeforeTheOldSessionTimeoutAfterKills() {
        try (FaultCluster cluster = FaultCluster.start("kill-2", 1, 2)) {
            CoordinatorProcess coordinator = cluster.coordinators.get(0);

            Recovery recovery = KillLoop.run(cluster, coordinator, 2);

            List<String> replayDifferences = new ArrayList<>();
            Invariants.Report report = cluster.suspendAndCheck(coordinator, replayDifferences);
            assertThat(report.violations()).isEmpty();
            assertThat(replayDifferences).isEmpty();
            assertThat(recovery.max()).isLessThan(Duration.ofSeconds(30));
        }
    }
}
