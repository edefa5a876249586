package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The broker process is SIGKILLed and restarted on the same log directory while a coordinator process and six
 * jobs with real sidecars run; measures from the kill until every job is triggered again.
 */
class BrokerRestartFaultIT {

    private static final int RESTARTS = 3;

    @Test
    void shouldKeepEveryInvariantAcrossBrokerRestarts() {
        try (FaultCluster cluster = FaultCluster.start("broker-restart", 1, 6)) {
            Recovery recovery = new Recovery("SIGKILL + restart of the broker -> every job triggered again");
            for (int restart = 0; restart < RESTARTS; restart++) {
                long killedAt = System.currentTimeMillis();
                cluster.broker.kill();
                cluster.broker.restart();
                recovery.add(cluster.awaitTriggeredAfter(killedAt, cluster.jobIds(), Duration.ofMinutes(3)));
                long recoveredAt = System.currentTimeMillis();
                org.awaitility.Awaitility.await("every job completes a checkpoint after the broker restart")
                        .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                        .until(() -> cluster.jobsCompletedSince(recoveredAt));
            }
            System.out.println("[faults] " + recovery.describe() + " (tuning " + cluster.tuning + ")");

            List<String> replayDifferences = new ArrayList<>();
            Invariants.Report report = cluster.suspendAndCheck(cluster.coordinators.get(0), replayDifferences);
            assertThat(report.violations()).isEmpty();
            assertThat(replayDifferences).isEmpty();
            assertThat(cluster.coordinators.get(0).isAlive()).isTrue();
        }
    }
}
