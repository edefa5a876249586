package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SIGKILL campaign (profile {@code faults}): {@code cairn.faults.kills} (20) kills of the only coordinator
 * under the load of six jobs with real sidecars, each kill followed by an immediate restart. Every invariant
 * must hold. Issue 7 aims at 5 s; runs here gave medians of 4.6 to 6.5 s, the first kills of a campaign being
 * the slowest (up to 13 s, while the broker and the test JVM still warm up), so the test fails above a 10 s
 * median or a 20 s worst case: a return towards Kafka's 45 s session, not the noise of a busy 2-core machine.
 * The figures themselves are reported, not asserted (docs/reliability.md).
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
            assertThat(recovery.median()).isLessThan(Duration.ofSeconds(10));
            assertThat(recovery.max()).isLessThan(Duration.ofSeconds(20));
        }
    }
}
