package dev.cairn.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.coordinator.streams.StoreLayout;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobStatus;
import dev.cairn.events.topics.CairnTopics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An upgrade in place from the previous release (built from this repository's history by
 * {@link PreviousRelease}) to this build, with real processes of both: one Kafka node, the coordinator, 20 jobs
 * each with a sidecar process, beside a sample worker in this JVM ({@link SidecarProcesses}).
 *
 * <p><b>Same application id.</b> The previous release's coordinator runs the jobs with the previous release's
 * sidecars until each has completed checkpoints; then every sidecar is frozen (SIGSTOP), so that every job has a
 * checkpoint pending, and two jobs get manual requests that queue behind it (at most one concurrent checkpoint).
 * The views its REST API serves are recorded and it is stopped cleanly (SIGTERM). This build's coordinator starts
 * with the same flags, application id, topics and state directory: it must take over the stores the previous release
 * wrote (as they are when the previous release records this build's store layout, else rebuilt from the journal)
 * and serve the same restore points, pending checkpoints, queues, counts and next ids. Then the sidecars go
 * on: the pending checkpoints complete (or, for two jobs whose sidecars stay frozen, expire at their original
 * deadline), the queued requests run, new ids continue above the old ones, and the previous release's sidecars ack
 * the new coordinator's checkpoints. The sidecars are then replaced one by one with this build's, and this build's
 * {@code cairn audit check} and {@code cairn audit verify} must find nothing.
 *
 * <p><b>New application id.</b> This build then starts under a new application id and state directory over the
 * same topics: from the journal alone it must serve the same views as its predecessor did before it stopped,
 * process none of the old input again, and go on checkpointing every job.
 */
class UpgradeInPlaceFaultIT {

    private static final int JOBS = 20;
    private static final int PARTITIONS = FaultCluster.PARTITIONS;
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    /** Longer than the whole upgrade: the checkpoints pending across it complete once their sidecars go on. */
    private static final Duration TIMEOUT = Duration.ofSeconds(180);
    /**
     * The timeout of the jobs whose pending checkpoint must expire under the new coordinator at the deadline the old
     * one set: from the freeze, about 5 s to the stop and 6 to 12 s (under load) until the new coordinator serves
     * the views, so that the checkpoint is still pending then; short enough not to hold up the run for long.
     */
    private static final Duration EXPIRING_TIMEOUT = Duration.ofSeconds(35);
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String REBUILT = "Rebuilt the stores of partition";
    private static final Pattern REBUILT_LINE = Pattern.compile(Pattern.quote(REBUILT)
            + " (\\S+) from (\\d+) journal records(.*)");

    private final ReleaseJars current = ReleaseJars.current();
    private final List<String> jobIds = IntStream.range(0, JOBS).mapToObj(i -> String.format("upgrade-job-%02d", i))
            .toList();
    /** Frozen across the upgrade and resumed at once: their pending checkpoint completes, their queue runs. */
    private final List<String> heldToComplete = jobIds.subList(0, 2);
    /** Frozen until their pending checkpoint has expired under the new coordinator. */
    private final List<String> heldToExpire = jobIds.subList(2, 4);
    private final CairnTopics topics = new CairnTopics("upgrade-" + UUID.randomUUID().toString().substring(0, 6) + ".");
    private final Map<String, String> queuedRequests = new LinkedHashMap<>();
    private final List<String> report = new ArrayList<>();
    private ReleaseJars previous;
    private Path dir;
    private BrokerCluster brokers;
    private SidecarMasterKey masterKey;
    private CoordinatorProcess coordinator;
    private CoordinatorProcess successor;
    private SidecarProcesses sidecars;
    private TopicRecorder recorder;
    private SignedRequests requests;
    private long upgradeStartedAt;

    @Test
    void shouldTakeOverThePreviousReleasesStoresInPlaceAndRebuildThemFromTheJournalUnderANewApplicationId() {
        long started = System.currentTimeMillis();
        previous = PreviousRelease.get();
        note(String.format("%s built (or found built) %.1f s after the start", previous,
                (System.currentTimeMillis() - started) / 1000.0));
        startThePreviousRelease();
        RestSnapshot beforeStop = holdEveryJobWithACheckpointPendingAndRequestsQueued();
        upgradeInPlace(beforeStop);
        goOnAfterTheUpgrade(beforeStop);
        replaceTheSidecarsOneByOne();
        RestSnapshot quiet = suspendAndAuditWithTheCli();
        rebuildFromTheJournalUnderANewApplicationId(quiet);
        note(String.format("whole run %.1f s", (System.currentTimeMillis() - started) / 1000.0));
        System.out.println("[upgrade] report:");
        report.forEach(line -> System.out.println("[upgrade]   " + line));
    }

    /** A figure or finding for the report: printed now, and again in the report at the end. */
    private void note(String line) {
        report.add(line);
        System.out.println("[upgrade] " + line);
    }

    // --- the previous release, running ------------------------------------------------------------------------

    private void startThePreviousRelease() {
        dir = FaultCluster.runDir("upgrade");
        masterKey = SidecarMasterKey.writeTo(dir);
        brokers = BrokerCluster.start(dir.resolve("kafka"), 1);
        // this build's class-data archive is made now, so that the takeover measured below does not include it
        CoordinatorProcess.prepare(current.coordinatorJar(), masterKey.file());
        coordinator = CoordinatorProcess.start(previous.coordinatorJar(), "coordinator", dir, brokers,
                "cairn-upgrade-" + UUID.randomUUID().toString().substring(0, 6), topics.prefix(), PARTITIONS,
                masterKey.file(), FailoverTuning.TUNED);
        Awaitility.await("the previous release's coordinator answering").atMost(WAIT)
                .pollInterval(Duration.ofMillis(200)).failFast("it exited; see " + coordinator.log(),
                        () -> !coordinator.isAlive())
                .until(() -> coordinator.get("/jobs/none").status() > 0);
        recorder = new TopicRecorder(brokers.bootstrapServers(), topics);
        requests = new SignedRequests(brokers.bootstrapServers(), topics, masterKey);
        for (String jobId : jobIds) {
            CoordinatorProcess.HttpAnswer answer = coordinator.put("/jobs/" + jobId, spec(jobId));
            assertThat(answer.status()).as("PUT /jobs/%s: %s", jobId, answer.body()).isEqualTo(202);
        }
        sidecars = new SidecarProcesses(brokers.bootstrapServers(), topics, masterKey, dir.resolve("workers"));
        long sidecarsAt = System.currentTimeMillis();
        jobIds.forEach(jobId -> sidecars.startSidecar(previous, jobId));
        Awaitility.await("every job completes two checkpoints under " + previous).atMost(WAIT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> completedCounts(coordinator).values().stream().filter(n -> n >= 2).count() == JOBS);
        note(String.format("%s: 1 Kafka node, coordinator, %d jobs, %d sidecar processes (sample workers in the "
                + "test JVM); every job completed 2 checkpoints %.1f s after the sidecars started", previous, JOBS,
                JOBS, (System.currentTimeMillis() - sidecarsAt) / 1000.0));
    }

    /** One vertex of parallelism one, at most one concurrent checkpoint, so that manual requests queue. */
    private String spec(String jobId) {
        long timeout = (heldToExpire.contains(jobId) ? EXPIRING_TIMEOUT : TIMEOUT).toMillis();
        return "{\"tasks\":[{\"taskId\":\"" + SidecarProcesses.TASK + "\",\"parallelism\":1}],\"config\":{"
                + "\"intervalMs\":" + INTERVAL.toMillis() + ",\"timeoutMs\":" + timeout + ",\"maxConcurrent\":1,"
                + "\"tolerableFailures\":1000000,\"storageBaseLocation\":\"" + dir.resolve("checkpoints").toUri()
                + "\"}}";
    }

    /**
     * Freezes every sidecar, waits until every job has a checkpoint pending (which nothing can ack any more: 2 s
     * are more than an ack sent just before the freeze takes to arrive),
     * queues a savepoint and a checkpoint request behind job 0's and a checkpoint request behind job 1's, and
     * returns the views served once they are queued: what the coordinator served just before its stop.
     */
    private RestSnapshot holdEveryJobWithACheckpointPendingAndRequestsQueued() {
        long frozenAt = System.currentTimeMillis();
        jobIds.forEach(sidecars::pause);
        Awaitility.await("every job has a checkpoint pending, 2 s after its sidecar froze").atMost(WAIT)
                .pollInterval(Duration.ofMillis(200)).until(() -> RestSnapshot.take(coordinator, jobIds)
                        .filter(s -> s.takenAtMs() - frozenAt >= 2000
                                && jobIds.stream().allMatch(j -> s.pending(j).size() == 1)).isPresent());
        String first = heldToComplete.get(0);
        queue(first, "{\"type\":\"CHECKPOINT\",\"force\":false,\"triggerId\":\"queued-checkpoint-" + first + "\"}",
                "queued-checkpoint-" + first);
        queue(first, "{\"type\":\"SAVEPOINT\",\"force\":false,\"targetLocation\":\""
                + dir.resolve("savepoints").resolve(first).toUri() + "\",\"triggerId\":\"queued-savepoint-" + first
                + "\"}", "queued-savepoint-" + first);
        String second = heldToComplete.get(1);
        queue(second, "{\"type\":\"CHECKPOINT\",\"force\":false,\"triggerId\":\"queued-checkpoint-" + second + "\"}",
                "queued-checkpoint-" + second);
        RestSnapshot beforeStop = Awaitility.await("the manual requests queued").atMost(WAIT)
                .pollInterval(Duration.ofMillis(200)).until(() -> RestSnapshot.take(coordinator, jobIds),
                        s -> s.isPresent() && queuedRequests.entrySet().stream()
                                .allMatch(q -> s.get().queuedRequestIds(q.getValue()).contains(q.getKey())))
                .orElseThrow();
        for (String jobId : jobIds) {
            assertThat(beforeStop.pending(jobId)).as("pending checkpoints of %s", jobId).hasSize(1);
            assertThat(beforeStop.restorePointId(jobId)).as("restore point of %s", jobId).isPositive();
        }
        note(String.format("before the stop: %d checkpoints pending (every job's sidecar frozen), %d manual "
                + "requests queued behind them", JOBS, queuedRequests.size()));
        return beforeStop;
    }

    private void queue(String jobId, String body, String requestId) {
        CoordinatorProcess.HttpAnswer answer = coordinator.post("/jobs/" + jobId + "/checkpoints", body);
        assertThat(answer.status()).as("POST /jobs/%s/checkpoints %s: %s", jobId, body, answer.body()).isEqualTo(202);
        queuedRequests.put(requestId, jobId);
    }

    // --- the upgrade in place -----------------------------------------------------------------------------------

    /**
     * Stops the previous release cleanly, starts this build on the same flags and state directory, and checks that it
     * serves what its predecessor served: restore points, pending checkpoints, queued requests, counts, next ids.
     */
    private void upgradeInPlace(RestSnapshot beforeStop) {
        Path previousLog = coordinator.log();
        long stopAt = System.currentTimeMillis();
        coordinator.stop();
        assertThat(read(previousLog)).as("the previous release's log, %s", previousLog)
                .contains("stopped: it left its group");
        long upgradeAt = System.currentTimeMillis();
        coordinator.upgradeTo(current.coordinatorJar());
        // each job's state must be what it was: the sidecars are frozen, so nothing can have moved but the periodic
        // requests queued behind the pending checkpoints
        List<String> differences = awaitSameViews(coordinator, s -> RestSnapshot.stateDifferences(beforeStop, s));
        long servedAt = System.currentTimeMillis();
        assertThat(differences).as("what this build serves after the upgrade, against what the previous release "
                + "served before its stop").isEmpty();
        List<String> rebuilt = rebuildLines(coordinator.log());
        long previousLayout = PreviousRelease.storeLayout();
        if (previousLayout == StoreLayout.CURRENT) {
            assertThat(rebuilt).as("%s records store layout %d, this build's: its stores are taken over as they are, "
                    + "not rebuilt (%s)", previous, previousLayout, coordinator.log()).isEmpty();
        } else {
            assertRebuiltEveryJournalPartition(rebuilt, coordinator.log());
        }
        note(String.format("upgrade in place: the previous release stopped in %.1f s; this build served every "
                + "job's views %.1f s after its start, equal to what its predecessor served", (upgradeAt - stopAt)
                / 1000.0, (servedAt - upgradeAt) / 1000.0));
        note("upgrade in place, as logged: " + (rebuilt.isEmpty() ? "stores of layout " + previousLayout
                + " taken over as they are" : describeRebuild(rebuilt)));
        upgradeStartedAt = upgradeAt;
    }

    /**
     * Resumes the sidecars (the expiring jobs' only once their checkpoint expired) and checks: every checkpoint
     * pending at the stop completes, or expires at its original deadline; the queued requests run; every job
     * completes a checkpoint with an id above the previous release's, acked by the previous release's sidecar.
     */
    private void goOnAfterTheUpgrade(RestSnapshot beforeStop) {
        jobIds.stream().filter(j -> !heldToExpire.contains(j)).forEach(sidecars::resume);
        for (String jobId : jobIds) {
            long pendingId = beforeStop.pending(jobId).get(0).get("id").asLong();
            if (heldToExpire.contains(jobId)) {
                long deadline = beforeStop.pending(jobId).get(0).get("expires_at").asLong();
                CheckpointAborted aborted = awaitJournal("checkpoint " + pendingId + " of " + jobId + " expired",
                        CheckpointAborted.class, a -> a.getJobId().equals(jobId) && a.getCheckpointId() == pendingId,
                        EXPIRING_TIMEOUT.plus(WAIT));
                assertThat(aborted.getReason()).as("why %s's checkpoint %d ended", jobId, pendingId)
                        .isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
                assertThat(aborted.getTimestampMs()).as("when %s's checkpoint %d expired", jobId, pendingId)
                        .isGreaterThanOrEqualTo(deadline).isLessThan(deadline + 10_000);
                sidecars.resume(jobId);
            } else {
                awaitJournal("checkpoint " + pendingId + " of " + jobId + ", pending across the upgrade, completed",
                        CheckpointCompleted.class, c -> c.getJobId().equals(jobId) && c.getCheckpointId() == pendingId,
                        WAIT);
            }
        }
        for (Map.Entry<String, String> queued : queuedRequests.entrySet()) {
            JsonNode outcome = awaitRequestCompleted(coordinator, queued.getValue(), queued.getKey());
            assertThat(outcome.get("checkpoint_id").asLong()).as("the checkpoint of queued request %s", queued.getKey())
                    .isGreaterThanOrEqualTo(beforeStop.nextCheckpointId(queued.getValue()));
        }
        RestSnapshot after = awaitNewCompletions(beforeStop);
        for (String jobId : jobIds) {
            assertThat(after.of(jobId).latestCompleted().get("subtask_states").get(0).get("attempt_id"))
                    .as("the attempt that acked %s's newest checkpoint: the previous release's sidecar", jobId)
                    .isEqualTo(beforeStop.of(jobId).latestCompleted().get("subtask_states").get(0).get("attempt_id"));
            assertThat(after.completed(jobId)).as("completed checkpoints of %s", jobId)
                    .isGreaterThan(beforeStop.completed(jobId));
        }
        List<String> resumed = jobIds.stream().filter(j -> !heldToExpire.contains(j)).toList();
        note("after the upgrade, the " + resumed.size() + " jobs resumed at once: "
                + firstCompletions(beforeStop, upgradeStartedAt, resumed)
                + ", acked by the previous release's sidecars;"
                + " their pending checkpoints completed, the " + queuedRequests.size() + " queued requests completed; "
                + heldToExpire.size() + " pending checkpoints expired at their original deadline");
    }

    /** Waits until every job's restore point is a checkpoint with an id at or above its next id in {@code before}. */
    private RestSnapshot awaitNewCompletions(RestSnapshot before) {
        return Awaitility.await("every job completes a checkpoint with an id above the previous ones").atMost(WAIT)
                .pollInterval(Duration.ofMillis(250)).until(() -> RestSnapshot.take(coordinator(), jobIds),
                        s -> s.isPresent() && jobIds.stream().allMatch(j -> s.get().restorePointId(j)
                                >= before.nextCheckpointId(j))).orElseThrow();
    }

    /** The instance serving now: the upgraded one, or its successor under a new application id. */
    private CoordinatorProcess coordinator() {
        return successor != null ? successor : coordinator;
    }

    /**
     * How long after {@code sinceMs} the first completion of a checkpoint with a new id (at or above the job's next id
     * in {@code before}) became visible, for the first job and for the last.
     */
    private String firstCompletions(RestSnapshot before, long sinceMs, List<String> jobs) {
        List<Long> firsts = new ArrayList<>();
        for (String jobId : jobs) {
            long nextId = before.nextCheckpointId(jobId);
            recorder.seen(topics.journal(), CheckpointCompleted.class,
                    c -> c.getJobId().equals(jobId) && c.getCheckpointId() >= nextId).stream()
                    .mapToLong(TopicRecorder.Seen::seenAtMs).min().ifPresent(firsts::add);
        }
        assertThat(firsts).as("jobs with a new completed checkpoint").hasSize(jobs.size());
        return String.format("first completion of a new checkpoint %.1f s after the start, every job's %.1f s after it",
                (firsts.stream().mapToLong(Long::longValue).min().orElseThrow() - sinceMs) / 1000.0,
                (firsts.stream().mapToLong(Long::longValue).max().orElseThrow() - sinceMs) / 1000.0);
    }

    // --- the sidecars, one by one ---------------------------------------------------------------------------------

    /**
     * Replaces each job's sidecar of the previous release with one of this build, one after the other (each stopped
     * before its successor starts); every job must then complete checkpoints acked by its new sidecar.
     */
    private void replaceTheSidecarsOneByOne() {
        RestSnapshot before = RestSnapshot.take(coordinator, jobIds).orElseThrow();
        long replacingAt = System.currentTimeMillis();
        for (String jobId : jobIds) {
            sidecars.replace(jobId, current);
        }
        RestSnapshot after = Awaitility.await("every job completes a checkpoint acked by its new sidecar")
                .atMost(WAIT).pollInterval(Duration.ofMillis(250)).until(() -> RestSnapshot.take(coordinator, jobIds),
                        s -> s.isPresent() && jobIds.stream().allMatch(j -> !ackingAttempt(s.get(), j)
                                .equals(ackingAttempt(before, j)))).orElseThrow();
        for (String jobId : jobIds) {
            assertThat(after.completed(jobId)).as("completed checkpoints of %s", jobId)
                    .isGreaterThan(before.completed(jobId));
        }
        note(String.format("sidecars replaced one by one with this build's: every job completed a checkpoint "
                + "acked by its new sidecar %.1f s after the first replacement", (System.currentTimeMillis()
                - replacingAt) / 1000.0));
    }

    private static JsonNode ackingAttempt(RestSnapshot snapshot, String jobId) {
        return snapshot.of(jobId).latestCompleted().path("subtask_states").path(0).path("attempt_id");
    }

    /**
     * Suspends every job, waits until nothing moves, and runs this build's {@code cairn audit check} and
     * {@code cairn audit verify}; returns the quiet views.
     */
    private RestSnapshot suspendAndAuditWithTheCli() {
        RestSnapshot quiet = suspendAndAwaitQuiet();
        cli("audit-check", List.of("audit", "check", "--bootstrap-servers=" + brokers.bootstrapServers(),
                "--topic-prefix=" + topics.prefix()));
        cli("audit-verify", List.of("audit", "verify", "--bootstrap-servers=" + brokers.bootstrapServers(),
                "--topic-prefix=" + topics.prefix(), "--rest-url=http://127.0.0.1:" + coordinator().httpPort(),
                "--token=" + CoordinatorProcess.REST_TOKEN));
        Invariants.Report invariants = Invariants.check(recorder);
        assertThat(invariants.violations()).as(invariants.describe()).isEmpty();
        note("cairn audit check and cairn audit verify (this build's CLI) exit 0; " + invariants.describe());
        return quiet;
    }

    private RestSnapshot suspendAndAwaitQuiet() {
        jobIds.forEach(jobId -> requests.changeStatus(jobId, JobStatus.SUSPENDED));
        AtomicReference<RestSnapshot> stillSince = new AtomicReference<>();
        return Awaitility.await("every job suspended, nothing pending, the views still for a second").atMost(WAIT)
                .pollInterval(Duration.ofMillis(250)).until(() -> RestSnapshot.take(coordinator(), jobIds)
                        .filter(this::suspendedWithNothingPending), s -> s.isPresent()
                                && stillForASecond(s.get(), stillSince)).orElseThrow();
    }

    private boolean suspendedWithNothingPending(RestSnapshot snapshot) {
        return jobIds.stream().allMatch(j -> snapshot.pending(j).isEmpty()
                && snapshot.of(j).job().path("state").asText().equals("SUSPENDED"));
    }

    /**
     * Whether {@code now} equals the snapshot {@code stillSince} holds and was taken at least a second after it;
     * otherwise {@code now} starts a new stretch.
     */
    private static boolean stillForASecond(RestSnapshot now, AtomicReference<RestSnapshot> stillSince) {
        RestSnapshot first = stillSince.get();
        if (first == null || !now.differencesFrom(first, Set.of()).isEmpty()) {
            stillSince.set(now);
            return false;
        }
        return now.takenAtMs() - first.takenAtMs() >= 1000;
    }

    /** Runs this build's CLI with {@code args}; it must exit 0. */
    private void cli(String name, List<String> args) {
        Path log = dir.resolve(name + ".log");
        List<String> command = new ArrayList<>(List.of("-jar", current.cliJar().toString()));
        command.addAll(args);
        int exit = ChildProcess.exitCodeOfJava("cairn " + name, command, log, Duration.ofSeconds(120));
        assertThat(exit).as("exit code of cairn %s; its output:%n%s", String.join(" ", args), read(log)).isZero();
    }

    // --- a new application id --------------------------------------------------------------------------------

    /**
     * Stops the coordinator cleanly and starts this build under a new application id and state directory over the
     * same topics: it must rebuild every job from the journal alone (the same views and request outcomes as its
     * predecessor served), take none of the old input again, and go on checkpointing once the jobs run again.
     */
    private void rebuildFromTheJournalUnderANewApplicationId(RestSnapshot quiet) {
        Map<String, JsonNode> outcomes = requestOutcomes(coordinator);
        Path log = coordinator.log();
        coordinator.stop();
        assertThat(read(log)).as("the upgraded coordinator's log, %s", log).contains("stopped: it left its group");
        Map<TopicPartition, Long> journalEnd = journalEndOffsets();
        long startedAt = System.currentTimeMillis();
        successor = CoordinatorProcess.start(current.coordinatorJar(), "coordinator-new-application", dir, brokers,
                "cairn-upgrade-new-" + UUID.randomUUID().toString().substring(0, 6), topics.prefix(), PARTITIONS,
                masterKey.file(), FailoverTuning.TUNED);
        List<String> differences = awaitSameViews(successor, s -> s.differencesFrom(quiet, Set.of()));
        long sameAt = System.currentTimeMillis();
        assertThat(differences).as("what the new application serves, against what its predecessor served before its "
                + "stop").isEmpty();
        assertThat(requestOutcomes(successor)).as("what became of the queued requests").isEqualTo(outcomes);
        assertRebuiltEveryJournalPartition(rebuildLines(successor.log()), successor.log());
        Awaitility.await("no old input taken again: the journal's end offsets stay where the predecessor left them")
                .during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofSeconds(1))
                .until(() -> journalEndOffsets().equals(journalEnd));
        note(String.format("new application id: every job's views equal to its predecessor's %.1f s after the "
                + "start, no record added to the journal in 5 s; as logged: %s", (sameAt - startedAt) / 1000.0,
                describeRebuild(rebuildLines(successor.log()))));
        goOnUnderTheNewApplication(quiet);
    }

    /** Resumes every job: each completes new checkpoints with new ids, and no old request is triggered again. */
    private void goOnUnderTheNewApplication(RestSnapshot quiet) {
        long resumedAt = System.currentTimeMillis();
        jobIds.forEach(jobId -> requests.changeStatus(jobId, JobStatus.RUNNING));
        awaitNewCompletions(quiet);
        List<CheckpointTriggered> oldRequests = recorder.events(topics.journal(), CheckpointTriggered.class,
                t -> t.getRequestId() != null && queuedRequests.containsKey(t.getRequestId()));
        assertThat(oldRequests).as("checkpoints triggered for the queued requests, over the whole run")
                .hasSize(queuedRequests.size());
        note("new application id, jobs resumed: " + firstCompletions(quiet, resumedAt, jobIds));
        suspendAndAwaitQuiet();
        Invariants.Report invariants = Invariants.check(recorder);
        assertThat(invariants.violations()).as(invariants.describe()).isEmpty();
        assertThat(LiveStoreAudit.differences(brokers.bootstrapServers(), topics.journal(), jobIds, successor))
                .as("journal replay against the new application's live store").isEmpty();
        note("at the end: " + invariants.describe() + "; journal replay equals the new application's live store");
    }

    /** {@code GET /jobs/{id}/checkpoints/{requestId}} of every queued request. */
    private Map<String, JsonNode> requestOutcomes(CoordinatorProcess instance) {
        Map<String, JsonNode> outcomes = new LinkedHashMap<>();
        queuedRequests.forEach((requestId, jobId) -> outcomes.put(requestId, RestSnapshot.get(instance,
                "/jobs/" + jobId + "/checkpoints/" + requestId).orElse(null)));
        return outcomes;
    }

    private JsonNode awaitRequestCompleted(CoordinatorProcess instance, String jobId, String requestId) {
        return Awaitility.await("queued request " + requestId + " of " + jobId + " completed").atMost(WAIT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> RestSnapshot.get(instance, "/jobs/" + jobId + "/checkpoints/" + requestId),
                        o -> o.isPresent() && o.get().path("stage").asText().equals("COMPLETED")).orElseThrow();
    }

    // --- reading ---------------------------------------------------------------------------------------------------

    /**
     * Waits until {@code instance} is ready ({@code GET /ready} on its probes port) and then until the differences
     * {@code compare} finds in what it serves are none; returns the last differences found (empty when it got there
     * within {@link #WAIT}). A coordinator may serve a job while it still rebuilds, so the first answer is not final.
     */
    private List<String> awaitSameViews(CoordinatorProcess instance, Function<RestSnapshot, List<String>> compare) {
        AtomicReference<List<String>> differences = new AtomicReference<>(List.of("not ready yet"));
        try {
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).failFast(() -> !instance.isAlive())
                    .until(() -> instance.probe("/ready", Duration.ofSeconds(2)).status() == 200);
            Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).failFast(() -> !instance.isAlive())
                    .until(() -> {
                        differences.set(RestSnapshot.take(instance, jobIds).map(compare)
                                .orElse(List.of("not every job served")));
                        return differences.get().isEmpty();
                    });
        } catch (ConditionTimeoutException e) {
            // the caller's assertion names what still differs
        }
        return differences.get();
    }

    private <T> T awaitJournal(String what, Class<T> type, Predicate<T> matching, Duration atMost) {
        return Awaitility.await(what).atMost(atMost).pollInterval(Duration.ofMillis(100))
                .until(() -> recorder.events(topics.journal(), type, matching), l -> !l.isEmpty()).get(0);
    }

    /** The end offset (high watermark) of every partition of the journal. */
    private Map<TopicPartition, Long> journalEndOffsets() {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers.bootstrapServers()), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topics.journal(), Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            return consumer.endOffsets(partitions, Duration.ofSeconds(10));
        }
    }

    /** Each job's completed count from {@code GET /jobs}. */
    private static Map<String, Long> completedCounts(CoordinatorProcess instance) {
        Map<String, Long> counts = new LinkedHashMap<>();
        RestSnapshot.get(instance, "/jobs").ifPresent(jobs -> jobs.path("jobs").forEach(job ->
                counts.put(job.path("id").asText(), job.path("counts").path("completed").asLong())));
        return counts;
    }

    private static List<String> rebuildLines(Path log) {
        return read(log).lines().filter(line -> line.contains(REBUILT)).toList();
    }

    /** Every journal partition that holds records must have been rebuilt, from a positive number of records. */
    private void assertRebuiltEveryJournalPartition(List<String> rebuilt, Path log) {
        Set<Integer> withRecords = new TreeSet<>();
        recorder.seen(topics.journal(), Object.class, e -> true).forEach(s -> withRecords.add(s.partition()));
        Set<Integer> rebuiltPartitions = new TreeSet<>();
        for (String line : rebuilt) {
            Matcher matcher = REBUILT_LINE.matcher(line);
            if (matcher.find() && Long.parseLong(matcher.group(2)) > 0) {
                Matcher digits = Pattern.compile("(\\d+)\\D*$").matcher(matcher.group(1));
                if (digits.find()) {
                    rebuiltPartitions.add(Integer.parseInt(digits.group(1)));
                }
            }
        }
        assertThat(rebuiltPartitions).as("partitions whose stores %s logs as rebuilt from the journal (%s); lines: %s",
                log, REBUILT, rebuilt).containsAll(withRecords);
    }

    /** The logged rebuilds: how many partitions, journal records in all, and the slowest partition's time. */
    private static String describeRebuild(List<String> lines) {
        long records = 0;
        long slowest = 0;
        long total = 0;
        for (String line : lines) {
            Matcher matcher = REBUILT_LINE.matcher(line);
            if (matcher.find()) {
                records += Long.parseLong(matcher.group(2));
                Matcher millis = Pattern.compile(" in (\\d+) ms").matcher(matcher.group(3));
                long ms = millis.find() ? Long.parseLong(millis.group(1)) : 0;
                slowest = Math.max(slowest, ms);
                total += ms;
            }
        }
        return String.format("%d partitions rebuilt from %,d journal records, %d ms for the slowest partition (%d ms "
                + "in all)", lines.size(), records, slowest, total);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    @AfterEach
    void stopEverything() {
        if (sidecars != null) {
            sidecars.close();
        }
        if (requests != null) {
            requests.close();
        }
        if (recorder != null) {
            recorder.close();
        }
        if (successor != null) {
            successor.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
        if (brokers != null) {
            brokers.close();
        }
    }
}
