package dev.cairn.faults;

import java.time.Duration;

/**
 * The SIGKILL loop of a single coordinator instance under load: kill it, start it again at once (same state
 * directory, same instance id), measure until every job is triggered again, and let each job complete a
 * checkpoint before the next kill.
 */
final class KillLoop {

    /** Far above the bound the tests assert, so that a slow recovery is measured, not cut short. */
    static final Duration MEASURE_AT_MOST = Duration.ofSeconds(120);

    private KillLoop() {
    }

    static Recovery run(FaultCluster cluster, CoordinatorProcess coordinator, int kills) {
        Recovery recovery = new Recovery("SIGKILL + restart of the only coordinator -> every job triggered again");
        for (int kill = 0; kill < kills; kill++) {
            long killedAt = System.currentTimeMillis();
            coordinator.kill();
            coordinator.restart();
            recovery.add(cluster.awaitTriggeredAfter(killedAt, cluster.jobIds(), MEASURE_AT_MOST));
            long recoveredAt = System.currentTimeMillis();
            org.awaitility.Awaitility.await("every job completes a checkpoint after the restart")
                    .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> cluster.jobsCompletedSince(recoveredAt));
        }
        System.out.println("[faults] " + recovery.describe() + " (tuning " + cluster.tuning + ")");
        return recovery;
    }
}
