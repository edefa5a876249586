package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SIGKILL campaign (profile {@code faults}): {@code cairn.faults.kills} (20) kills of the only coordinator
 * under the load of six jobs with real sidecars, each kill followed by an immediate restart. Every invariant
 * must hold; the median recovery must stay within 5 s and the slowest within 10 s (the first restart of a
 * campaign is the slowest: page cache and the broker's first fencing).
 */
class CoordinatorKillCampaignFaultIT {

    @Test
    void shouldTriggerWithinFiveSecondsAfterAKillOnTheMedian() {
        int kills = Integer.getInteger("cairn.faults.kills", 20);
        try (FaultCluster cluster = FaultCluster.start("kill-" + kills, 1, 6)) {
            CoordinatorProcess coordinator = cluster.coordinators.get(0);

            Recovery recovery = KillLoop.run(cluster, coordinator, kills);

            List<String> replayDifferences = new ArrayList<>();
            Invariants.Report report = cluster.suspendAndCheck(coordinator, replayDifferences);
            assertThat(report.violations()).isEmpty();
            assertThat(replayDifferences).isEmpty();
            assertThat(recovery.median()).isLessThan(Duration.ofSeconds(5));
            assertThat(recovery.max()).isLessThan(Duration.ofSeconds(10));
        }
    }
}
