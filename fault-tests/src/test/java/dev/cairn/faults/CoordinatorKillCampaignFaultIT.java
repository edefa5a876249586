package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The SIGKILL campaign (profile {@code faults}): {@code cairn.faults.kills} (20) kills of the only coordinator
 * under the load of six jobs with real sidecars, each kill followed by an immediate restart. Every invariant
 * must hold. Issue 7 aims at 5 s; runs here gave medians of 4.6 to 6.5 s, the first kills of a campaign being
 * the slowest (up to 13 s, while the broker and the test JVM still warm up), so the test fails above a 10 s
 * median or a 20 s worst case: a return towards Kafka's 45 s session, not the noise of a busy 2-core machine.
 * The figures themselves are reported, not asserted (docs/reliability.md).
 *
 * <p>The coordinator snapshots every journal partition every {@link #SNAPSHOT_INTERVAL}, so that the processes make
 * snapshots throughout the campaign and some are killed while making one; each snapshot is folded from the one
 * before it. Once the jobs are suspended and quiet, a coordinator of a new application id (no stores, no changelogs)
 * must serve every job as the killed one did from the newest snapshots alone: the journal records they hold are
 * deleted first, as a finite retention would.
 */
class CoordinatorKillCampaignFaultIT {

    /**
     * Shorter than a process's tasks live between going live and the next kill (1 to 4 s: a trigger, then every job
     * completes a checkpoint), so that most processes start snapshots and many are killed while making one.
     */
    static final Duration SNAPSHOT_INTERVAL = Duration.ofSeconds(1);
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Pattern REBUILT = Pattern.compile("Rebuilt the stores of partition (\\d+) from (.*?)(\\d+) "
            + "journal records .* in (\\d+) ms");
    private static final Pattern FROM_SNAPSHOT = Pattern.compile("the snapshot of partition (\\d+) at journal offset "
            + "(\\d+) ");

    @Test
    void shouldTriggerAgainWithinSecondsAfterEachOfTwentyKills() {
        int kills = Integer.getInteger("cairn.faults.kills", 20);
        try (FaultCluster cluster = FaultCluster.start("kill-" + kills, 1, 1, 6,
                List.of("--snapshot-interval-ms=" + SNAPSHOT_INTERVAL.toMillis()))) {
            CoordinatorProcess coordinator = cluster.coordinators.get(0);

            Recovery recovery = KillLoop.run(cluster, coordinator, kills);

            List<String> replayDifferences = new ArrayList<>();
            Invariants.Report report = cluster.suspendAndCheck(coordinator, replayDifferences);
            assertThat(report.violations()).isEmpty();
            assertThat(replayDifferences).isEmpty();
            assertThat(recovery.median()).isLessThan(Duration.ofSeconds(10));
            assertThat(recovery.max()).isLessThan(Duration.ofSeconds(20));

            rebuildFromTheSnapshotsUnderANewApplicationId(cluster, coordinator);
        }
    }

    /** The journal's ends, the newest snapshots covering them, and the views served meanwhile. */
    private record Covered(Map<Integer, Long> journalEnds, JournalSnapshots.Manifests manifests, RestSnapshot views) {}

    /**
     * With the jobs suspended and quiet: waits until every journal partition's newest snapshot reflects its whole
     * journal, takes the views {@code coordinator} serves, kills it, deletes every journal record before each
     * partition's newest snapshot, and starts a coordinator of a new application id over the same topics with the
     * same flags: it must rebuild each partition from its snapshot, serve the same views, and take no old input again.
     */
    private static void rebuildFromTheSnapshotsUnderANewApplicationId(FaultCluster cluster,
            CoordinatorProcess coordinator) {
        JournalSnapshots journal = new JournalSnapshots(cluster.brokers.bootstrapServers(), cluster.topics);
        long quietAt = System.currentTimeMillis();
        List<Path> logs = coordinator.logs();
        Covered covered = awaitSnapshotsOfTheWholeJournal(cluster, coordinator, journal);
        long coveredAt = System.currentTimeMillis();
        Map<Integer, Long> snapshotted = covered.manifests().newest();
        Set<Integer> withRecords = covered.journalEnds().entrySet().stream().filter(e -> e.getValue() > 0)
                .map(Map.Entry::getKey).collect(Collectors.toCollection(TreeSet::new));
        double lastProcessWrote = snapshotsWritten(coordinator);
        assertThat(lastProcessWrote).as("cairn_snapshots_total of the last coordinator process, on its /metrics")
                .isPositive();
        coordinator.kill();

        SnapshotLogs.Counts killed = SnapshotLogs.count(logs.subList(0, logs.size() - 1), withRecords);
        SnapshotLogs.Counts all = SnapshotLogs.count(logs, withRecords);
        assertThat(killed.written()).as("snapshots written by the killed processes, as their logs say: the newest "
                + "ones are folded from theirs").isPositive();
        Map<Integer, Long> starts = journal.deleteBefore(snapshotted);
        assertThat(starts).as("the journal's first offsets after deleting the records the snapshots hold")
                .containsAllEntriesOf(snapshotted);

        long startedAt = System.currentTimeMillis();
        CoordinatorProcess successor = cluster.startCoordinator("coordinator-from-snapshots",
                "cairn-faults-snapshots-" + UUID.randomUUID().toString().substring(0, 6));
        List<String> differences = awaitSameViews(successor, cluster.jobIds(), covered.views());
        long servedAt = System.currentTimeMillis();
        assertThat(differences).as("what the new application serves, rebuilt from the snapshots (%s), against what "
                + "the killed coordinator served", successor.log()).isEmpty();
        Map<Integer, String> rebuilt = awaitRebuildLines(successor, withRecords);
        for (int partition : withRecords) {
            Matcher from = FROM_SNAPSHOT.matcher(rebuilt.get(partition));
            assertThat(from.find() && Integer.parseInt(from.group(1)) == partition
                    && Long.parseLong(from.group(2)) == snapshotted.get(partition))
                    .as("partition %d rebuilt from the snapshot of partition %d at journal offset %d (%s): %s",
                            partition, partition, snapshotted.get(partition), successor.log(), rebuilt.get(partition))
                    .isTrue();
        }
        Awaitility.await("no old input taken again: the journal's end offsets stay where they were")
                .during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500))
                .until(() -> journal.journalEnds().equals(covered.journalEnds()));
        successor.kill();

        // a process killed after writing a manifest but before logging it counts as under way: the topic tells
        System.out.printf("[faults] snapshots every %d ms: %d manifests written to %s by the %d coordinator "
                        + "processes (%d logged as written, %.0f by the last process as its /metrics says), %d "
                        + "failed; %d under way when one of the %d killed processes died (%d of them had written "
                        + "their manifest); the newest covered the whole journal %.1f s after the jobs were quiet, "
                        + "at journal offsets %s%n",
                SNAPSHOT_INTERVAL.toMillis(), covered.manifests().written(), cluster.topics.snapshots(),
                logs.size(), all.written(), lastProcessWrote, all.failed(), killed.underWayAtTheEnd(),
                logs.size() - 1, covered.manifests().written() - all.written(), (coveredAt - quietAt) / 1000.0,
                snapshotted);
        System.out.printf("[faults] new application id over the journal trimmed before its snapshots: every job's "
                + "views equal to the killed coordinator's %.1f s after its start; %s; this check took %.1f s%n",
                (servedAt - startedAt) / 1000.0, describe(rebuilt), (System.currentTimeMillis() - quietAt) / 1000.0);
    }

    /**
     * Waits until the newest snapshot of every journal partition that holds records reflects its whole journal, and
     * takes the views {@code coordinator} serves while the journal's ends stay there.
     */
    private static Covered awaitSnapshotsOfTheWholeJournal(FaultCluster cluster, CoordinatorProcess coordinator,
            JournalSnapshots journal) {
        AtomicReference<Covered> covered = new AtomicReference<>();
        Awaitility.await("every journal partition's newest snapshot at or beyond its end")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    Map<Integer, Long> ends = journal.journalEnds();
                    JournalSnapshots.Manifests manifests = journal.manifests();
                    boolean all = ends.entrySet().stream().allMatch(e -> e.getValue() == 0
                            || manifests.newest().getOrDefault(e.getKey(), -1L) >= e.getValue());
                    if (!all) {
                        return false;
                    }
                    RestSnapshot views = RestSnapshot.take(coordinator, cluster.jobIds()).orElse(null);
                    if (views == null || !journal.journalEnds().equals(ends)) {
                        return false;
                    }
                    covered.set(new Covered(ends, manifests, views));
                    return true;
                });
        return covered.get();
    }

    /** The sum of {@code cairn_snapshots_total} over the partitions, on the instance's {@code GET /metrics}. */
    private static double snapshotsWritten(CoordinatorProcess coordinator) {
        CoordinatorProcess.HttpAnswer metrics = coordinator.probe("/metrics", Duration.ofSeconds(5));
        assertThat(metrics.status()).as("GET /metrics: %s", metrics.body()).isEqualTo(200);
        return metrics.body().lines().filter(line -> line.startsWith("cairn_snapshots_total{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    /**
     * Waits until {@code instance} is ready and serves {@code before}'s views of every job, compared in full and by
     * {@link RestSnapshot#stateDifferences}; returns the differences left (empty once it got there within
     * {@link #WAIT}). An instance may serve a job while it still rebuilds, so its first answer is not final.
     */
    private static List<String> awaitSameViews(CoordinatorProcess instance, List<String> jobIds,
            RestSnapshot before) {
        AtomicReference<List<String>> differences = new AtomicReference<>(List.of("not ready yet"));
        try {
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                    .failFast("it exited; see " + instance.log(), () -> !instance.isAlive())
                    .until(() -> instance.probe("/ready", Duration.ofSeconds(2)).status() == 200);
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                    .failFast("it exited; see " + instance.log(), () -> !instance.isAlive())
                    .until(() -> {
                        differences.set(RestSnapshot.take(instance, jobIds).map(now -> {
                            List<String> found = new ArrayList<>(RestSnapshot.stateDifferences(before, now));
                            found.addAll(now.differencesFrom(before, Set.of()));
                            return found;
                        }).orElse(List.of("not every job served")));
                        return differences.get().isEmpty();
                    });
        } catch (ConditionTimeoutException e) {
            // the caller's assertion names what still differs
        }
        return differences.get();
    }

    /** Each partition's line "Rebuilt the stores of partition" in {@code instance}'s log, once every one has one. */
    private static Map<Integer, String> awaitRebuildLines(CoordinatorProcess instance, Set<Integer> partitions) {
        return Awaitility.await("a rebuild logged for every partition that holds journal records").atMost(WAIT)
                .pollInterval(Duration.ofMillis(200)).until(() -> rebuildLines(instance.log()),
                        lines -> lines.keySet().containsAll(partitions));
    }

    private static Map<Integer, String> rebuildLines(Path log) {
        Map<Integer, String> lines = new TreeMap<>();
        for (String line : read(log).lines().toList()) {
            Matcher matcher = REBUILT.matcher(line);
            if (matcher.find()) {
                lines.put(Integer.parseInt(matcher.group(1)), line);
            }
        }
        return lines;
    }

    /** How many partitions were rebuilt from a snapshot, the journal records after them, the slowest's time. */
    private static String describe(Map<Integer, String> rebuilt) {
        int fromSnapshots = 0;
        long records = 0;
        long slowest = 0;
        for (String line : rebuilt.values()) {
            Matcher matcher = REBUILT.matcher(line);
            if (matcher.find()) {
                fromSnapshots += matcher.group(2).startsWith("the snapshot") ? 1 : 0;
                records += Long.parseLong(matcher.group(3));
                slowest = Math.max(slowest, Long.parseLong(matcher.group(4)));
            }
        }
        return String.format("%d partitions rebuilt, %d of them from a snapshot, with %d journal records after the "
                + "snapshots, %d ms for the slowest", rebuilt.size(), fromSnapshots, records, slowest);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
