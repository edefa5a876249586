package dev.cairn.faults;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.topics.CairnTopics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;

/**
 * Everything one fault test runs: a {@link BrokerCluster} of Kafka node processes, {@code instances} coordinator
 * processes of one application, a {@link JobFleet} of real sidecars, and a {@link TopicRecorder}; with the waits
 * the tests measure. The run is signed as the coordinator's default requires: one {@link SidecarMasterKey} for the
 * coordinators, its job keys for the sidecars. Its files (Kafka and coordinator logs, state directories, the
 * master key) live under {@code cairn.faults.dir/<run>}.
 */
final class FaultCluster implements AutoCloseable {

    static final int PARTITIONS = 6;
    private static final Duration START = Duration.ofSeconds(90);

    final BrokerCluster brokers;
    final List<CoordinatorProcess> coordinators = new ArrayList<>();
    final CairnTopics topics = new CairnTopics("faults-" + UUID.randomUUID().toString().substring(0, 6) + ".");
    final FailoverTuning tuning = FailoverTuning.fromSystemProperty();
    final Path dir;
    final SidecarMasterKey masterKey;
    /** The flags every coordinator of the run gets beside its own and its tuning's. */
    final List<String> coordinatorFlags;
    TopicRecorder recorder;
    JobFleet fleet;

    private FaultCluster(Path dir, int brokers, List<String> coordinatorFlags) {
        this.dir = dir;
        this.coordinatorFlags = List.copyOf(coordinatorFlags);
        this.masterKey = SidecarMasterKey.writeTo(dir);
        this.brokers = BrokerCluster.start(dir.resolve("kafka"), brokers);
    }

    /**
     * Starts {@code brokers} Kafka nodes, the coordinators and the jobs; returns once every job has completed a
     * checkpoint.
     */
    static FaultCluster start(String run, int brokers, int instances, int jobs) {
        return start(run, brokers, instances, jobs, List.of());
    }

    /**
     * {@link #start(String, int, int, int)} with {@code coordinatorFlags} given to every coordinator process of the
     * run (e.g. {@code --snapshot-interval-ms=3000}), after its own flags and its tuning's.
     */
    static FaultCluster start(String run, int brokers, int instances, int jobs, List<String> coordinatorFlags) {
        Path dir = runDir(run);
        FaultCluster cluster = new FaultCluster(dir, brokers, coordinatorFlags);
        try {
            String applicationId = "cairn-faults-" + UUID.randomUUID().toString().substring(0, 6);
            for (int i = 0; i < instances; i++) {
                cluster.startCoordinator("coordinator-" + i, applicationId);
            }
            // any REST answer means the topics exist and take writes
            Awaitility.await("coordinators answering").atMost(START).pollInterval(Duration.ofMillis(200))
                    .until(() -> cluster.coordinators.stream().allMatch(c -> c.get("/jobs/none").status() > 0));
            cluster.recorder = new TopicRecorder(cluster.brokers.bootstrapServers(), cluster.topics);
            cluster.fleet = JobFleet.start(cluster.brokers.bootstrapServers(), cluster.topics, cluster.masterKey, jobs,
                    dir.resolve("jobs"));
            long started = System.currentTimeMillis();
            Awaitility.await("every job completes a checkpoint").atMost(START).pollInterval(Duration.ofMillis(100))
                    .until(() -> cluster.jobsCompletedSince(started));
            System.out.printf("[faults] %s: %d Kafka node(s) %s, %d coordinator(s)%s, %d jobs, tuning %s, files in "
                    + "%s%n", run, brokers, cluster.brokers.bootstrapServers(), instances,
                    coordinatorFlags.isEmpty() ? "" : " with " + String.join(" ", coordinatorFlags), jobs,
                    cluster.tuning, dir);
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Starts another coordinator process, {@code name}, of {@code applicationId} over the run's Kafka and topics, with
     * the run's master key, tuning and coordinator flags; it is stopped with the run. Returns once the process runs.
     */
    CoordinatorProcess startCoordinator(String name, String applicationId) {
        CoordinatorProcess coordinator = CoordinatorProcess.start(name, dir, brokers, applicationId, topics.prefix(),
                PARTITIONS, masterKey.file(), tuning, coordinatorFlags);
        coordinators.add(coordinator);
        return coordinator;
    }

    /** A new directory for the files of {@code run} under {@code cairn.faults.dir}. */
    static Path runDir(String run) {
        Path base = Path.of(System.getProperty("cairn.faults.dir", "target/faults"));
        try {
            return Files.createDirectories(base.resolve(run + "-" + System.currentTimeMillis()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> jobIds() {
        return fleet.jobIds();
    }

    /** Whether every job has a checkpoint that completed after {@code sinceMs}. */
    boolean jobsCompletedSince(long sinceMs) {
        return recorder.events(topics.journal(), CheckpointCompleted.class,
                        c -> c.getCompletionTimestampMs() > sinceMs).stream()
                .map(CheckpointCompleted::getJobId).collect(Collectors.toSet()).containsAll(jobIds());
    }

    /**
     * Waits until each of {@code jobs} has a checkpoint triggered (decided) after {@code faultAtMs} visible on
     * {@code cairn.control}, and returns the time from the fault until the last of them became visible.
     */
    Duration awaitTriggeredAfter(long faultAtMs, List<String> jobs, Duration atMost) {
        Awaitility.await("every affected job triggered again").atMost(atMost).pollInterval(Duration.ofMillis(20))
                .until(() -> lastFirstTrigger(faultAtMs, jobs) > 0);
        return Duration.ofMillis(lastFirstTrigger(faultAtMs, jobs) - faultAtMs);
    }

    /** When the slowest job's first trigger after the fault became visible, or -1 while some job has none. */
    private long lastFirstTrigger(long faultAtMs, List<String> jobs) {
        long last = 0;
        for (String job : jobs) {
            long first = recorder.seen(topics.control(), CheckpointTriggered.class,
                            t -> t.getJobId().equals(job) && t.getTimestampMs() > faultAtMs).stream()
                    .mapToLong(TopicRecorder.Seen::seenAtMs).min().orElse(-1);
            if (first < 0) {
                return -1;
            }
            last = Math.max(last, first);
        }
        return last;
    }

    /** Which instance owns each job now, asked of {@code any} instance (it names the owner), or empty mid-rebalance. */
    Map<String, String> owners(CoordinatorProcess any) {
        Map<String, String> owners = new java.util.TreeMap<>();
        for (String job : jobIds()) {
            CoordinatorProcess.HttpAnswer answer = any.get("/jobs/" + job);
            if (answer.status() != 200) {
                return Map.of();
            }
            coordinators.stream().filter(c -> c.isServer(answer.servedBy())).findFirst()
                    .ifPresent(owner -> owners.put(job, owner.name()));
        }
        return owners.size() == jobIds().size() ? owners : Map.of();
    }

    /**
     * Suspends every job, waits until every checkpoint has ended, then checks the invariants and compares the
     * journal's replay with the live store of {@code liveInstance}; prints both.
     */
    Invariants.Report suspendAndCheck(CoordinatorProcess liveInstance, List<String> replayDifferences) {
        fleet.suspendAll();
        awaitQuietly(JobFleet.TIMEOUT.plusSeconds(40), () -> Invariants.check(recorder).violations().stream()
                .noneMatch(v -> v.startsWith("orphaned")));
        awaitQuietly(Duration.ofSeconds(30), () -> LiveStoreAudit.differences(brokers.bootstrapServers(),
                topics.journal(), jobIds(), liveInstance).isEmpty());
        replayDifferences.addAll(LiveStoreAudit.differences(brokers.bootstrapServers(), topics.journal(), jobIds(),
                liveInstance));
        Invariants.Report report = Invariants.check(recorder);
        System.out.println("[faults] " + report.describe());
        System.out.println("[faults] audit: journal replay " + (replayDifferences.isEmpty()
                ? "equals the live store for every job" : "DIFFERS: " + replayDifferences));
        return report;
    }

    /** Waits for a condition that the caller then checks itself, so that a failure names what is wrong. */
    private static void awaitQuietly(Duration atMost, java.util.concurrent.Callable<Boolean> condition) {
        try {
            Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // the caller's assertions report what still differs
        }
    }

    @Override
    public void close() {
        if (fleet != null) {
            fleet.close();
        }
        if (recorder != null) {
            recorder.close();
        }
        coordinators.forEach(CoordinatorProcess::close);
        brokers.close();
    }
}
