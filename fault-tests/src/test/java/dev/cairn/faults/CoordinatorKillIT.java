package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The short version of the SIGKILL campaign, in the default build: a broker process, one coordinator process
 * and two jobs with real sidecars; the coordinator is SIGKILLed twice and restarted at once.
 */
class CoordinatorKillIT {

    @Test
    void shouldTriggerWithinFiveSecondsAfterACoordinatorIsKilled() {
        try (FaultCluster cluster = FaultCluster.start("kill-2", 1, 2)) {
            CoordinatorProcess coordinator = cluster.coordinators.get(0);

            Recovery recovery = KillLoop.run(cluster, coordinator, 2);

            List<String> replayDifferences = new ArrayList<>();
            Invariants.Report report = cluster.suspendAndCheck(coordinator, replayDifferences);
            assertThat(report.violations()).isEmpty();
            assertThat(replayDifferences).isEmpty();
            assertThat(recovery.max()).isLessThan(Duration.ofSeconds(5));
        }
    }
}
