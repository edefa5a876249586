package dev.cairn.core.decide;

import static dev.cairn.core.contract.CoordinatorSettings.DEFAULT_REQUESTS_KEPT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.events.Command;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.state.StateTable;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointConfig;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.TaskVertex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.apache.avro.specific.SpecificRecord;

/**
 * Random command sequences against one job: invariants hold after every decision, and folding the
 * serialized journal reproduces the live state (jobs, specs, vertices, attempts, acks, retained).
 */
class CoordinatorPropertyTest {

    private static final String JOB = "prop-job";

    /** One random step; indexes are reduced modulo what exists when the step runs. */
    sealed interface Action {
    }

    record Advance(long ms) implements Action {
    }

    record Restart(int vertex, int subtask) implements Action {
    }

    record Manual(boolean savepoint, boolean force) implements Action {
    }

    record AckOne(int pending, int vertex, int subtask, int attemptKind) implements Action {
    }

    record AckAll(int pending) implements Action {
    }

    record AckAnyId(int offset) implements Action {
    }

    record DeclineOne(int pending, int vertex, int subtask, CheckpointFailureReason reason) implements Action {
    }

    record Status(JobStatus status) implements Action {
    }

    /** A subtask finishes for good, with its running attempt or a stale one. */
    record Finish(int vertex, int subtask, boolean stale) implements Action {
    }

    /** A participant of a pending checkpoint answers (acks or declines). */
    record Answer(int pending, int participant, boolean decline) implements Action {
    }

    /** Registers the initial tasks again, or the current ones without the last (a spec that drops a task). */
    record Respec(int maxConcurrent, boolean dropLastTask) implements Action {
    }

    record Run(JobSpec spec, double fraction, List<Action> actions) {
    }

    @Provide
    Arbitrary<Run> runs() {
        Arbitrary<TaskVertex> vertex = Combinators.combine(Arbitraries.integers().between(1, 3),
                Arbitraries.of(true, false), Arbitraries.of(true, false))
                .as((parallelism, triggered, acknowledges) -> Fixtures.vertex("t", parallelism, triggered,
                        acknowledges));
        Arbitrary<List<TaskVertex>> vertices = vertex.list().ofMinSize(1).ofMaxSize(3).map(list -> {
            List<TaskVertex> named = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                TaskVertex v = list.get(i);
                named.add(Fixtures.vertex("task-" + i, v.getParallelism(), i == 0 || v.getTriggered(),
                        i == 0 || v.getAcknowledges()));
            }
            return named;
        });
        Arbitrary<CheckpointConfig> config = Combinators.combine(Arbitraries.longs().between(50, 300),
                Arbitraries.longs().between(50, 600), Arbitraries.longs().between(0, 100),
                Arbitraries.integers().between(1, 3), Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(1, 3))
                .as((interval, timeout, minPause, maxConcurrent, tolerable, retained) -> Fixtures.config()
                        .setIntervalMs(interval).setTimeoutMs(timeout).setMinPauseMs(minPause)
                        .setMaxConcurrent(maxConcurrent).setTolerableFailures(tolerable).setRetained(retained)
                        .build());
        Arbitrary<List<String>> participants = Arbitraries.of(List.<String>of(), List.<String>of(), List.of("p0"),
                List.of("p0", "p1"));
        Arbitrary<JobSpec> spec = Combinators.combine(vertices, config, participants).as((tasks, c, p) ->
                JobSpec.newBuilder().setJobId(JOB).setTasks(tasks).setConfig(c).setTimestampMs(0)
                        .setParticipants(p).build());
        Arbitrary<Integer> any = Arbitraries.integers().between(0, 20);
        @SuppressWarnings("unchecked")
        Arbitrary<Action> action = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.longs().between(0, 400).map(Advance::new)),
                Tuple.of(2, Combinators.combine(any, any).as(Restart::new)),
                Tuple.of(3, Combinators.combine(Arbitraries.of(true, false), Arbitraries.of(true, false))
                        .as(Manual::new)),
                Tuple.of(6, Combinators.combine(any, any, any, Arbitraries.integers().between(0, 5))
                        .as(AckOne::new)),
                Tuple.of(10, any.map(AckAll::new)),
                Tuple.of(1, Arbitraries.integers().between(-3, 2).map(AckAnyId::new)),
                Tuple.of(2, Combinators.combine(any, any, any, Arbitraries.of(CheckpointFailureReason.class))
                        .as(DeclineOne::new)),
                Tuple.of(1, Arbitraries.of(JobStatus.RUNNING, JobStatus.RUNNING, JobStatus.RUNNING,
                        JobStatus.SUSPENDED, JobStatus.FAILED).map(Status::new)),
                Tuple.of(1, Combinators.combine(Arbitraries.integers().between(1, 3), Arbitraries.of(true, false))
                        .as(Respec::new)),
                Tuple.of(2, Combinators.combine(any, any, Arbitraries.of(false, false, false, true)).as(Finish::new)),
                Tuple.of(6, Combinators.combine(any, any, Arbitraries.of(false, false, false, false, true))
                        .as(Answer::new)));
        return Combinators.combine(spec, Arbitraries.doubles().between(0, 0.99),
                action.list().ofMinSize(10).ofMaxSize(80))
                .as(Run::new);
    }

    @Property(tries = 300)
    void shouldKeepCheckpointInvariantsAndReplayToTheLiveState(@ForAll("runs") Run run) {
        CheckpointDecider decider = new CheckpointDecider(new CoordinatorSettings(4, 3, 4, InputLimits.DEFAULTS,
                DEFAULT_REQUESTS_KEPT));
        CoordinatorState live = CoordinatorState.inMemory();
        Invariants invariants = new Invariants();
        List<SpecificRecord> journal = new ArrayList<>();
        Map<String, Integer> attemptNumbers = new HashMap<>();
        long now = 1000;

        List<Command> commands = new ArrayList<>();
        commands.add(new Command.RegisterJob(run.spec(), run.fraction()));
        for (TaskVertex v : run.spec().getTasks()) {
            for (int s = 0; s < v.getParallelism(); s++) {
                commands.add(restart(v.getTaskId(), s, attemptNumbers));
            }
        }
        for (Command command : commands) {
            now = step(decider, live, command, now, invariants, journal);
        }
        for (Action action : run.actions()) {
            if (action instanceof Advance a) {
                now += a.ms();
                now = step(decider, live, new Command.Tick(JOB), now, invariants, journal);
                continue;
            }
            for (Command command : commandsFor(action, live, attemptNumbers, run.spec())) {
                now = step(decider, live, command, now, invariants, journal);
            }
        }

        Statistics.label("checkpoints completed").collect(bucket(count(journal, CheckpointCompleted.class)));
        Statistics.label("checkpoints aborted").collect(bucket(count(journal, CheckpointAborted.class)));
        Statistics.label("acks discarded").collect(bucket(count(journal, AckDiscarded.class)));
        Statistics.label("subtasks finished").collect(bucket(count(journal, dev.cairn.events.TaskFinished.class)));
        Statistics.label("participants' answers").collect(bucket(
                count(journal, dev.cairn.events.ParticipantAcknowledged.class)));
        CoordinatorState replayed = CoordinatorState.inMemory();
        decider.evolver().fold(replayed, journal.stream().map(JournalCodec::roundTrip).toList());
        assertThat(replayed).isEqualTo(live);
    }

    private static long count(List<SpecificRecord> journal, Class<?> type) {
        return journal.stream().filter(type::isInstance).count();
    }

    private static String bucket(long n) {
        return n == 0 ? "0" : n < 5 ? "1-4" : "5+";
    }

    private static long step(CheckpointDecider decider, CoordinatorState live, Command command, long now,
            Invariants invariants, List<SpecificRecord> journal) {
        CoordinatorState before = live.copy();
        Decided decided = decider.decide(command, live, now);
        assertThat(live).as("decide must not mutate the state").isEqualTo(before);
        CoordinatorState evolved = live.copy();
        for (SpecificRecord event : decided.events()) {
            invariants.check(evolved, event);
            decider.evolver().evolve(evolved, event);
        }
        decided.applyTo(live);
        assertThat(live).as("the decided changes equal the events evolved one by one").isEqualTo(evolved);
        journal.addAll(decided.events());
        List<TaskVertex> tasks = live.spec(JOB).map(JobSpec::getTasks).orElse(List.of());
        assertThat(live.values(StateTable.VERTICES, JOB).stream().map(TaskVertex::getTaskId).sorted())
                .as("one vertex key per task of the current spec")
                .containsExactlyElementsOf(tasks.stream().map(TaskVertex::getTaskId).sorted().toList());
        tasks.forEach(v -> assertThat(live.vertex(JOB, v.getTaskId())).contains(v));
        live.job(JOB).filter(j -> j.getStatus() == JobStatus.RUNNING && !j.getQueue().isEmpty()).ifPresent(j -> {
            var head = j.getQueue().get(0);
            boolean full = j.getPending().size() >= j.getConfig().getMaxConcurrent();
            boolean pausing = head.getPeriodic() && j.getLastCompletionMs() != null
                    && j.getLastCompletionMs() + j.getConfig().getMinPauseMs() > now;
            boolean tickDue = !(command instanceof Command.Tick) && j.getNextPeriodicDueMs() != null
                    && j.getNextPeriodicDueMs() <= now;
            assertThat(!head.getForce() && (full || pausing) || tickDue)
                    .as("a request stays queued only while it cannot run, or until the tick already due runs it: "
                            + "%s after %s: %s", j, command,
                            decided.events()).isTrue();
        });
        return now + 1;
    }

    private static Command restart(String taskId, int subtask, Map<String, Integer> attemptNumbers) {
        int number = attemptNumbers.merge(taskId + "/" + subtask, 1, Integer::sum);
        return new Command.StartTask(Fixtures.started(JOB, taskId, subtask, Fixtures.attempt(taskId, subtask, number)));
    }

    private static List<Command> commandsFor(Action action, CoordinatorState live,
            Map<String, Integer> attemptNumbers, JobSpec initialSpec) {
        JobState job = live.job(JOB).orElseThrow();
        List<TaskVertex> tasks = live.spec(JOB).orElseThrow().getTasks();
        List<PendingCheckpoint> pending = job.getPending();
        long someId = pending.isEmpty() ? job.getNextCheckpointId() - 1 : 0;
        if (action instanceof Restart r) {
            TaskVertex v = tasks.get(r.vertex() % tasks.size());
            return List.of(restart(v.getTaskId(), r.subtask() % v.getParallelism(), attemptNumbers));
        }
        if (action instanceof Manual m) {
            String requestId = "req-" + job.getNextRequestSequence() + "-" + job.getCounts().getTriggered();
            return List.of(new Command.RequestTrigger(Fixtures.request(requestId,
                    m.savepoint() ? CheckpointType.SAVEPOINT : CheckpointType.CHECKPOINT, m.force())));
        }
        if (action instanceof AckOne a) {
            return List.of(ackOne(a, live, tasks, pending, someId));
        }
        if (action instanceof AckAll a) {
            return ackAll(a, live, tasks, pending);
        }
        if (action instanceof AckAnyId a) {
            TaskVertex v = tasks.get(0);
            return List.of(new Command.Acknowledge(Fixtures.ack(JOB, job.getNextCheckpointId() + a.offset(),
                    v.getTaskId(), 0, live.attempt(JOB, v.getTaskId(), 0).orElse("none"), 1)));
        }
        if (action instanceof DeclineOne d) {
            long id = pending.isEmpty() ? someId : pending.get(d.pending() % pending.size()).getCheckpointId();
            TaskVertex v = tasks.get(d.vertex() % tasks.size());
            dev.cairn.events.CheckpointDeclined declined = Fixtures.declined(id, v.getTaskId(),
                    d.subtask() % v.getParallelism(), d.reason());
            declined.setJobId(JOB);
            return List.of(new Command.Decline(declined));
        }
        if (action instanceof Finish f) {
            TaskVertex v = tasks.get(f.vertex() % tasks.size());
            int subtask = f.subtask() % v.getParallelism();
            String attempt = f.stale() ? "stale" : live.attempt(JOB, v.getTaskId(), subtask).orElse("none");
            return List.of(new Command.FinishTask(dev.cairn.events.TaskFinished.newBuilder().setJobId(JOB)
                    .setTaskId(v.getTaskId()).setSubtaskIndex(subtask).setAttemptId(attempt)
                    .setFinalState(subtask % 2 == 0 ? Fixtures.handle("mem://final", 5) : null)
                    .setTimestampMs(0).build()));
        }
        if (action instanceof Answer a) {
            return answer(a, live, pending);
        }
        if (action instanceof Status s) {
            return List.of(new Command.ChangeJobStatus(JobStatusChange.newBuilder().setJobId(JOB)
                    .setStatus(s.status()).setTimestampMs(0).build(), 0.5));
        }
        return List.of(respec((Respec) action, tasks, initialSpec));
    }

    private static Command ackOne(AckOne a, CoordinatorState live, List<TaskVertex> tasks,
            List<PendingCheckpoint> pending, long someId) {
        long id = pending.isEmpty() ? someId : pending.get(a.pending() % pending.size()).getCheckpointId();
        TaskVertex v = tasks.get(a.vertex() % tasks.size());
        int subtask = a.subtask() % v.getParallelism();
        String current = live.attempt(JOB, v.getTaskId(), subtask).orElse("none");
        String attempt = a.attemptKind() == 0 ? "stranger" : a.attemptKind() == 1
                ? Fixtures.attempt(v.getTaskId(), subtask, 1) : current;
        return new Command.Acknowledge(Fixtures.ack(JOB, id, v.getTaskId(), subtask, attempt, 7));
    }

    private static List<Command> ackAll(AckAll a, CoordinatorState live, List<TaskVertex> tasks,
            List<PendingCheckpoint> pending) {
        if (pending.isEmpty()) {
            return List.of();
        }
        long id = pending.get(a.pending() % pending.size()).getCheckpointId();
        List<Command> acks = new ArrayList<>();
        for (TaskVertex v : tasks) {
            for (int s = 0; v.getAcknowledges() && s < v.getParallelism(); s++) {
                String current = live.attempt(JOB, v.getTaskId(), s).orElse("none");
                acks.add(new Command.Acknowledge(Fixtures.ack(JOB, id, v.getTaskId(), s, current, 3)));
            }
        }
        return acks;
    }

    private static List<Command> answer(Answer a, CoordinatorState live, List<PendingCheckpoint> pending) {
        List<String> names = live.spec(JOB).orElseThrow().getParticipants();
        if (pending.isEmpty() || names.isEmpty()) {
            return List.of();
        }
        long id = pending.get(a.pending() % pending.size()).getCheckpointId();
        String participant = names.get(a.participant() % names.size());
        if (a.decline()) {
            return List.of(new Command.DeclineParticipant(dev.cairn.events.ParticipantDeclined.newBuilder()
                    .setJobId(JOB).setCheckpointId(id).setParticipant(participant)
                    .setReason(CheckpointFailureReason.CHECKPOINT_DECLINED).setMessage("no")
                    .setTimestampMs(0).build()));
        }
        return List.of(new Command.AcknowledgeParticipant(dev.cairn.events.ParticipantAcknowledged.newBuilder()
                .setJobId(JOB).setCheckpointId(id).setParticipant(participant)
                .setState(Fixtures.handle("mem://p", 2)).setTimestampMs(0).build()));
    }

    private static Command respec(Respec r, List<TaskVertex> tasks, JobSpec initialSpec) {
        CheckpointConfig config = CheckpointConfig.newBuilder()
                .setIntervalMs(initialSpec.getConfig().getIntervalMs())
                .setTimeoutMs(initialSpec.getConfig().getTimeoutMs())
                .setMinPauseMs(initialSpec.getConfig().getMinPauseMs())
                .setMaxConcurrent(r.maxConcurrent())
                .setTolerableFailures(initialSpec.getConfig().getTolerableFailures())
                .setRetained(initialSpec.getConfig().getRetained())
                .setStorageBaseLocation(initialSpec.getConfig().getStorageBaseLocation())
                .build();
        List<TaskVertex> respecTasks = r.dropLastTask() && tasks.size() > 1 ? tasks.subList(0, tasks.size() - 1)
                : initialSpec.getTasks();
        return new Command.RegisterJob(JobSpec.newBuilder().setJobId(JOB).setTasks(List.copyOf(respecTasks))
                .setConfig(config).setTimestampMs(0).setParticipants(initialSpec.getParticipants()).build(), 0.25);
    }

    /** Checks each event against what happened before it, in journal order. */
    private static final class Invariants {
        private long lastTriggeredId;
        /** Checkpoints whose participants were asked first: their tasks' trigger comes later, same id. */
        private final Set<Long> askedParticipants = new HashSet<>();
        private final Map<Long, CheckpointTriggered> triggered = new HashMap<>();
        /** The subtasks that had finished when each checkpoint's tasks were triggered. */
        private final Map<Long, Set<String>> finishedAtTrigger = new HashMap<>();
        private final Set<Long> ended = new HashSet<>();
        private final Map<Long, Set<String>> acked = new HashMap<>();

        void check(CoordinatorState before, SpecificRecord event) {
            JobState job = before.job(JOB).orElse(null);
            if (event instanceof dev.cairn.events.ParticipantsTriggered t) {
                assertThat(t.getCheckpointId()).as("ids strictly increase").isGreaterThan(lastTriggeredId);
                lastTriggeredId = t.getCheckpointId();
                if (!t.getForce()) {
                    assertThat(job.getPending().size()).as("pending before a non-forced trigger")
                            .isLessThan(job.getConfig().getMaxConcurrent());
                }
                askedParticipants.add(t.getCheckpointId());
            } else if (event instanceof CheckpointTriggered t) {
                if (askedParticipants.contains(t.getCheckpointId())) {
                    assertThat(job.getPending()).as("the tasks of a checkpoint whose participants all answered")
                            .anySatisfy(p -> {
                                assertThat(p.getCheckpointId()).isEqualTo(t.getCheckpointId());
                                assertThat(p.getParticipantStates()).hasSameSizeAs(p.getParticipants());
                            });
                } else {
                    assertThat(t.getCheckpointId()).as("ids strictly increase").isGreaterThan(lastTriggeredId);
                    lastTriggeredId = t.getCheckpointId();
                    if (!t.getForce()) {
                        assertThat(job.getPending().size()).as("pending before a non-forced trigger")
                                .isLessThan(job.getConfig().getMaxConcurrent());
                    }
                }
                triggered.put(t.getCheckpointId(), t);
                Set<String> finished = new HashSet<>();
                for (TaskVertex v : before.spec(JOB).orElseThrow().getTasks()) {
                    for (int s = 0; s < v.getParallelism(); s++) {
                        if (v.getAcknowledges() && before.finished(JOB, v.getTaskId(), s).isPresent()) {
                            finished.add(v.getTaskId() + "/" + s);
                        }
                    }
                }
                assertThat(finished).as("finished subtasks counted by the trigger").hasSize(t.getFinishedSubtasks());
                finishedAtTrigger.put(t.getCheckpointId(), finished);
            } else if (event instanceof CheckpointAcknowledged a) {
                String subtask = a.getTaskId() + "/" + a.getSubtaskIndex();
                assertThat(triggered).as("acks only once the tasks are triggered").containsKey(a.getCheckpointId());
                assertThat(finishedAtTrigger.get(a.getCheckpointId())).as("no ack from a subtask the checkpoint "
                        + "counted as finished").doesNotContain(subtask);
                assertThat(acked.computeIfAbsent(a.getCheckpointId(), id -> new HashSet<>())
                        .add(subtask)).as("one accepted ack per subtask").isTrue();
            } else if (event instanceof CheckpointCompleted c) {
                end(c.getCheckpointId());
                CheckpointTriggered trigger = triggered.get(c.getCheckpointId());
                assertThat(trigger).as("only checkpoints whose tasks were triggered complete").isNotNull();
                int required = trigger.getAcksExpected();
                assertThat(acked.getOrDefault(c.getCheckpointId(), Set.of()))
                        .as("completion only with every required ack").hasSize(required);
                assertThat(c.getSubtaskCount()).isEqualTo(required + trigger.getFinishedSubtasks());
                assertThat(before.acks(JOB, c.getCheckpointId())).as("the accepted acks hold the states")
                        .hasSize(required);
            } else if (event instanceof CheckpointAborted a) {
                end(a.getCheckpointId());
            }
        }

        private void end(long id) {
            assertThat(triggered.containsKey(id) || askedParticipants.contains(id))
                    .as("only triggered checkpoints end").isTrue();
            assertThat(ended.add(id)).as("checkpoint %s ends at most once", id).isTrue();
        }
    }
}
