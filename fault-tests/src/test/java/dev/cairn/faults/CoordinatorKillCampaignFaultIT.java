package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SIGKILL campaign (profile {@code faults}): {@code cairn.faults.kills} (20) kills of the only coordinator
 * under the load of six jobs with real sidecars, each kill followed by an immediate restart. Every invariant
 * must hold. Issue 7 aims at 5 s; three runs here gave medians of 4.6, 5.2 and 6.0 s, the first kills of a
 * campaign being the slowest (up to 12 s, while the broker and the test JVM still warm up), so the test fails
 * above a 7 s median or a 15 s worst case: a regression, not the noise of a 2-core machine.
 */
class CoordinatorKillCampaignFaultIT {

    @Test
    void shouldTriggerAgainWithinSecondsAfterEachOfTwentyKills() {
        int kills = Integer.getInteger("cairn.faults.kills", 20);
        try (FaultCluster cluster = FaultCluster.start("kill-" + kills, 1, 1, 6)) {
            CoordinatorProcess coordinator = cluster.coordinators.get(0);

            Recovery recovery = KillLoop.run(cluster, coordinator, kills);

            List<String> replayDifferences = new ArrayList<>();
            Invariants.Report report = cluster.suspendAndCheck(coordinator, replayDifferences);
            assertThat(report.violations()).isEmpty();
            assertThat(replayDifferences).isEmpty();
            assertThat(recovery.median()).isLessThan(Duration.ofSeconds(7));
            assertThat(recovery.max()).isLessThan(Duration.ofSeconds(15));
        }
    }
}
