package dev.cairn.faults;

import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.pipeline.PipelineProcesses;
import dev.cairn.pipeline.PipelineTopology;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.BiFunction;
import org.awaitility.Awaitility;

/**
 * The SIGKILLs of a chaos run, one after another: each waits for its moment, kills, and waits until the job has
 * recovered (a checkpoint triggered after the replacement process started completed) before the next. The kinds:
 * a count or sink subtask while a checkpoint's barriers are in flight, a sink subtask right after a checkpoint
 * completed (its commit pending), a count or sink subtask once a stop-with-savepoint was accepted (the stop must
 * fail and the job run on), any worker at a random moment, and the coordinator instance that owns the job
 * (restarted at once, as a pod would be); with {@link #withBrokerFaults}, also the Kafka node faults of
 * {@link BrokerKills}. The plan (which kinds, in which order, whom) comes from a seed, printed for a replay.
 */
final class ChaosKills {

    /**
     * What a kill hits and when; the last three are Kafka node faults ({@link BrokerKills}): a random node
     * SIGKILLed, the leader of a partition of the counts topic SIGKILLed, a random node stopped with SIGTERM; each
     * node is started again at once.
     */
    enum Kind {
        ALIGNMENT, PENDING_COMMIT, STOP, AFTER_STOP, WORKER, COORDINATOR, BROKER, LEADER, BROKER_RESTART;

        boolean isBrokerFault() {
            return this == BROKER || this == LEADER || this == BROKER_RESTART;
        }
    }

    /**
     * One kill carried out: its kind, whom, when, the last checkpoint triggered and completed at that moment, when
     * the job recovered (empty if it did not within the wait), for a stop the stop's outcome, and for a Kafka node
     * when it was back (answering, and every partition on all its replicas again).
     */
    record Kill(Kind kind, String target, Instant at, long lastTriggered, long lastCompleted,
            Optional<Instant> recovered, Optional<RequestOutcome> stopOutcome, Optional<Instant> back) {

        Kill(Kind kind, String target, Instant at, long lastTriggered, long lastCompleted,
                Optional<Instant> recovered, Optional<RequestOutcome> stopOutcome) {
            this(kind, target, at, lastTriggered, lastCompleted, recovered, stopOutcome, Optional.empty());
        }

        Optional<Duration> recovery() {
            return recovered.map(r -> Duration.between(at, r));
        }

        /** For a Kafka node fault: from the fault until the node was back. */
        Optional<Duration> backAfter() {
            return back.map(b -> Duration.between(at, b));
        }
    }

    static final Duration RECOVERY_WAIT = Duration.ofMinutes(3);
    private static final int WORKERS = PipelineTopology.tasks().size() * PipelineTopology.PARALLELISM;
    private static final Duration MOMENT_WAIT = Duration.ofSeconds(60);
    private static final Duration FAST_POLL = Duration.ofMillis(5);
    private static final int STOP_ATTEMPTS = 3;

    private final ChaosPipeline pipeline;
    private final FaultCluster cluster;
    private final Random random;
    private final List<Kind> plan;
    private final BrokerKills brokers;
    private final List<Kill> done = new ArrayList<>();

    /** {@code count} kills of workers and coordinators ({@link #plan}). */
    ChaosKills(ChaosPipeline pipeline, FaultCluster cluster, long seed, int count) {
        this(pipeline, cluster, seed, count, ChaosKills::plan);
    }

    private ChaosKills(ChaosPipeline pipeline, FaultCluster cluster, long seed, int count,
            BiFunction<Random, Integer, List<Kind>> planner) {
        this.pipeline = pipeline;
        this.cluster = cluster;
        this.random = new Random(seed);
        this.plan = planner.apply(random, count);
        this.brokers = new BrokerKills(pipeline, cluster.brokers, random);
    }

    /** {@code count} faults: Kafka node faults among kills of workers and coordinators ({@link BrokerKills#plan}). */
    static ChaosKills withBrokerFaults(ChaosPipeline pipeline, FaultCluster cluster, long seed, int count) {
        return new ChaosKills(pipeline, cluster, seed, count, BrokerKills::plan);
    }

    /**
     * {@code count} kinds: a tenth stops and a fifth coordinators (at least one each), a twentieth kills after a
     * completed stop (at least one from four kills on), the rest in turn.
     */
    static List<Kind> plan(Random random, int count) {
        List<Kind> kinds = new ArrayList<>();
        int stops = Math.max(1, count / 10);
        int coordinators = Math.max(1, count / 5);
        int afterStops = count >= 4 ? Math.max(1, count / 20) : 0;
        for (int i = 0; i < stops; i++) {
            kinds.add(Kind.STOP);
        }
        for (int i = 0; i < afterStops; i++) {
            kinds.add(Kind.AFTER_STOP);
        }
        for (int i = 0; i < coordinators; i++) {
            kinds.add(Kind.COORDINATOR);
        }
        List<Kind> others = List.of(Kind.ALIGNMENT, Kind.PENDING_COMMIT, Kind.WORKER);
        for (int i = 0; kinds.size() < count; i++) {
            kinds.add(others.get(i % others.size()));
        }
        Collections.shuffle(kinds, random);
        return kinds;
    }

    List<Kind> plan() {
        return List.copyOf(plan);
    }

    List<Kill> done() {
        return List.copyOf(done);
    }

    /** Carries out every fault of the plan, each after a random pause of 0.5 to 2.5 s once the last recovered. */
    void runAll() {
        for (Kind kind : plan) {
            pause(Duration.ofMillis(500 + random.nextInt(2_000)));
            Kill kill = switch (kind) {
                case ALIGNMENT -> killDuringAlignment();
                case PENDING_COMMIT -> killDuringPendingCommit();
                case STOP -> killDuringStop();
                case AFTER_STOP -> killAfterStop();
                case WORKER -> killWorker(Kind.WORKER, randomRole(PipelineTopology.tasks()));
                case COORDINATOR -> killCoordinator();
                case BROKER, LEADER, BROKER_RESTART -> brokers.run(kind);
            };
            done.add(kill);
            System.out.println("[chaos] kill #" + done.size() + ": " + describe(kill));
        }
    }

    private Kill killDuringAlignment() {
        long after = lastTriggered();
        Awaitility.await("a checkpoint is triggered").atMost(MOMENT_WAIT).pollInterval(FAST_POLL)
                .until(() -> lastTriggered() > after);
        pause(Duration.ofMillis(random.nextInt(150)));
        return killWorker(Kind.ALIGNMENT, randomRole(List.of(PipelineTopology.COUNT, PipelineTopology.SINK)));
    }

    private Kill killDuringPendingCommit() {
        long after = lastCompleted();
        Awaitility.await("a checkpoint completes").atMost(MOMENT_WAIT).pollInterval(FAST_POLL)
                .until(() -> lastCompleted() > after);
        return killWorker(Kind.PENDING_COMMIT, PipelineTopology.SINK);
    }

    /**
     * Asks for a stop-with-savepoint and kills a count or sink subtask as soon as the request is accepted, before its
     * savepoint can complete: the savepoint is triggered with the dead attempt, which never acknowledges it, so the
     * stop fails however fast the savepoint would have been (an idle pipeline takes about 100 ms for one).
     */
    private Kill killDuringStop() {
        String requestId = pipeline.requestStop(false, pipeline.savepointTarget("stop-" + (done.size() + 1)));
        Kill kill = killWorker(Kind.STOP, randomRole(List.of(PipelineTopology.COUNT, PipelineTopology.SINK)));
        Awaitility.await("the stop-with-savepoint is triggered or refused").atMost(MOMENT_WAIT)
                .until(() -> stopTrigger(requestId).isPresent() || pipeline.outcome(requestId).isPresent());
        RequestOutcome outcome = Awaitility.await("the stop-with-savepoint ends").atMost(RECOVERY_WAIT)
                .until(() -> pipeline.outcome(requestId), Optional::isPresent).orElseThrow();
        return new Kill(kill.kind(), kill.target(), kill.at(), kill.lastTriggered(), kill.lastCompleted(),
                kill.recovered(), Optional.of(outcome));
    }

    /**
     * Stops the job with a savepoint (no drain) and SIGKILLs a sink subtask as soon as the savepoint completes, before
     * it can commit what the savepoint holds: the job is FINISHED, the other workers exit, and the killed sink, started
     * again by its supervisor, restores the stop's savepoint (the job's restore point) and commits it. Then the job is
     * resumed from its restore point and the stopped workers are started again, as a user redeploys them; the kill
     * has recovered when a checkpoint triggered after the resume completes. No kill comes before the stop, but its
     * savepoint can still expire on a machine that the run's own processes load (every process of the run shares
     * its cores): a stop that fails is asked again, as a user would, up to {@link #STOP_ATTEMPTS} times, each failure
     * printed; one that fails every time is recorded and the job runs on.
     */
    private Kill killAfterStop() {
        RequestOutcome stop = null;
        for (int attempt = 1; attempt <= STOP_ATTEMPTS; attempt++) {
            String requestId = pipeline.requestStop(false,
                    pipeline.savepointTarget("after-stop-" + (done.size() + 1) + "-" + attempt));
            stop = Awaitility.await("the stop-with-savepoint ends").atMost(RECOVERY_WAIT).pollInterval(FAST_POLL)
                    .until(() -> pipeline.outcome(requestId), Optional::isPresent).orElseThrow();
            if (stop.getStatus() == RequestStatus.COMPLETED) {
                break;
            }
            System.out.println("[chaos] stop-with-savepoint " + attempt + " of " + STOP_ATTEMPTS
                    + " before a kill failed, asked again: " + stop);
        }
        long triggered = lastTriggered();
        long completed = lastCompleted();
        Instant at = Instant.now();
        if (stop.getStatus() != RequestStatus.COMPLETED) {
            return new Kill(Kind.AFTER_STOP, "(none: the stop failed)", at, triggered, completed,
                    awaitCompletedTriggeredAfter(at), Optional.of(stop));
        }
        int subtask = random.nextInt(PipelineTopology.PARALLELISM);
        pipeline.workers.kill(PipelineTopology.SINK, subtask);
        String worker = PipelineTopology.SINK + "-" + subtask;
        Awaitility.await("the other workers exit after the stop, and " + worker + " is started again")
                .atMost(MOMENT_WAIT).pollInterval(Duration.ofMillis(20))
                .until(() -> finishedWorkers() == WORKERS
                        || restartOf(worker, at).isPresent() && finishedWorkers() == WORKERS - 1);
        String resume = pipeline.requestResume();
        RequestOutcome resumed = Awaitility.await("the job resumes from the stop's savepoint").atMost(MOMENT_WAIT)
                .until(() -> pipeline.outcome(resume), Optional::isPresent).orElseThrow();
        if (resumed.getStatus() != RequestStatus.COMPLETED) {
            throw new IllegalStateException("the job did not resume after the stop: " + resumed);
        }
        Instant resumedAt = Instant.now();
        pipeline.workers.startFinished();
        return new Kill(Kind.AFTER_STOP, worker, at, triggered, completed, awaitCompletedTriggeredAfter(resumedAt),
                Optional.of(stop));
    }

    private long finishedWorkers() {
        return PipelineTopology.tasks().stream().mapToLong(role -> java.util.stream.IntStream
                .range(0, PipelineTopology.PARALLELISM)
                .filter(subtask -> pipeline.workers.finished(role, subtask).isPresent()).count()).sum();
    }

    private Optional<CheckpointTriggered> stopTrigger(String requestId) {
        return pipeline.triggered().stream()
                .filter(t -> t.getRequestId() != null && t.getRequestId().equals(requestId)).findFirst();
    }

    private Kill killWorker(Kind kind, String role) {
        int subtask = random.nextInt(PipelineTopology.PARALLELISM);
        long triggered = lastTriggered();
        long completed = lastCompleted();
        Instant at = Instant.now();
        pipeline.workers.kill(role, subtask);
        String worker = role + "-" + subtask;
        Instant restarted = Awaitility.await(worker + " is started again").atMost(MOMENT_WAIT)
                .pollInterval(Duration.ofMillis(20)).until(() -> restartOf(worker, at), Optional::isPresent)
                .orElseThrow();
        return new Kill(kind, worker, at, triggered, completed, awaitCompletedTriggeredAfter(restarted),
                Optional.empty());
    }

    private Optional<Instant> restartOf(String worker, Instant killedAt) {
        return pipeline.workers.events().stream().filter(e -> e.worker().equals(worker)
                        && e.kind() == PipelineProcesses.Kind.STARTED && !e.at().isBefore(killedAt))
                .map(PipelineProcesses.Event::at).findFirst();
    }

    /** SIGKILLs the instance that owns the job (a random one when none says) and starts it again at once. */
    private Kill killCoordinator() {
        CoordinatorProcess victim = owner().orElseGet(
                () -> cluster.coordinators.get(random.nextInt(cluster.coordinators.size())));
        long triggered = lastTriggered();
        long completed = lastCompleted();
        Instant at = Instant.now();
        victim.kill();
        victim.restart();
        return new Kill(Kind.COORDINATOR, victim.name(), at, triggered, completed, awaitCompletedTriggeredAfter(at),
                Optional.empty());
    }

    private Optional<CoordinatorProcess> owner() {
        for (CoordinatorProcess asked : cluster.coordinators) {
            CoordinatorProcess.HttpAnswer answer = asked.get("/jobs/" + pipeline.jobId);
            if (answer.status() == 200) {
                return cluster.coordinators.stream().filter(c -> c.isServer(answer.servedBy())).findFirst();
            }
        }
        return Optional.empty();
    }

    /** When the first checkpoint triggered at or after {@code since} completed, waiting for it up to a limit. */
    private Optional<Instant> awaitCompletedTriggeredAfter(Instant since) {
        return pipeline.awaitCompletedTriggeredAfter(since, RECOVERY_WAIT);
    }

    private long lastTriggered() {
        return pipeline.lastTriggered();
    }

    private long lastCompleted() {
        return pipeline.lastCompleted();
    }

    private String randomRole(List<String> roles) {
        return roles.get(random.nextInt(roles.size()));
    }

    /** Waits {@code pause} (Awaitility's poll delay, so that no test sleeps). */
    private static void pause(Duration pause) {
        Awaitility.await().pollDelay(pause).atMost(pause.plusSeconds(1)).until(() -> true);
    }

    static String describe(Kill kill) {
        return kill.kind() + " " + kill.target() + " at " + kill.at() + " (last triggered " + kill.lastTriggered()
                + ", last completed " + kill.lastCompleted() + "): "
                + kill.backAfter().map(d -> "node back after " + d.toMillis() + " ms, ").orElse("") + "recovered after "
                + kill.recovery().map(d -> d.toMillis() + " ms").orElse("(not within " + RECOVERY_WAIT + ")")
                + kill.stopOutcome().map(o -> "; the stop " + o.getStatus() + " (" + o.getReason() + ": "
                        + o.getMessage() + ")").orElse("");
    }
}
