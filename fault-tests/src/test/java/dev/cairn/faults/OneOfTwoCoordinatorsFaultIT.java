package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Two coordinator instances share eight jobs; one is SIGKILLed. Measures how long until the survivor triggers
 * the dead one's jobs, then restarts the dead one and measures how long until the jobs are spread over both
 * instances again. Repeated {@link #ROUNDS} times. The survivor decides within about 7 s (6 s session, rebalance,
 * restore), but its triggers become visible to read_committed readers only once the broker has aborted the dead
 * instance's open transaction (its 5 s timeout, found by a check that runs every 10 s by default), so a takeover
 * took 6.3 to 14.2 s here, depending on when that check runs. The test fails above a 20 s median or a 30 s worst
 * case: a return towards Kafka's 45 s session, not that spread (clean-clone CI runs here had medians of 10.1 and
 * 11.9 s).
 */
class OneOfTwoCoordinatorsFaultIT {

    private static final int ROUNDS = 3;

    @Test
    void shouldTriggerTheKilledInstancesJobsWithinTenSecondsOnTheMedianAndSpreadThemBackAfterItsRestart() {
        try (FaultCluster cluster = FaultCluster.start("one-of-two", 1, 2, 8)) {
            Recovery takeover = new Recovery("SIGKILL of one of two coordinators -> survivor triggers its jobs");
            Recovery spreadBack = new Recovery("restart of the killed coordinator -> jobs spread over both again");
            for (int round = 0; round < ROUNDS; round++) {
                CoordinatorProcess victim = cluster.coordinators.get(round % 2);
                CoordinatorProcess survivor = cluster.coordinators.get(1 - round % 2);
                Map<String, String> owners = awaitSpread(cluster, survivor, Duration.ofMinutes(12));
                List<String> victimsJobs = owners.entrySet().stream()
                        .filter(e -> e.getValue().equals(victim.name())).map(Map.Entry::getKey).toList();
                System.out.println("[faults] owners before the kill: " + owners);

                long killedAt = System.currentTimeMillis();
                victim.kill();
                takeover.add(cluster.awaitTriggeredAfter(killedAt, victimsJobs, KillLoop.MEASURE_AT_MOST));

                long restartedAt = System.currentTimeMillis();
                victim.restart();
                awaitSpread(cluster, survivor, Duration.ofMinutes(12));
                spreadBack.add(Duration.ofMillis(System.currentTimeMillis() - restartedAt));
            }
            System.out.println("[faults] " + takeover.describe() + " (tuning " + cluster.tuning + ")");
            System.out.println("[faults] " + spreadBack.describe() + " (tuning " + cluster.tuning + ")");

            List<String> replayDifferences = new ArrayList<>();
            Invariants.Report report = cluster.suspendAndCheck(cluster.coordinators.get(0), replayDifferences);
            assertThat(report.violations()).isEmpty();
            assertThat(replayDifferences).isEmpty();
            assertThat(takeover.median()).isLessThan(Duration.ofSeconds(20));
            assertThat(takeover.max()).isLessThan(Duration.ofSeconds(30));
            assertThat(spreadBack.max()).isLessThan(Duration.ofSeconds(30));
        }
    }

    /** Waits until both instances own jobs and returns who owns which. */
    private static Map<String, String> awaitSpread(FaultCluster cluster, CoordinatorProcess asked, Duration atMost) {
        return Awaitility.await("jobs spread over both instances").atMost(atMost).pollInterval(Duration.ofMillis(250))
                .until(() -> cluster.owners(asked), owners -> owners.values().stream().distinct().count() == 2);
    }
}
