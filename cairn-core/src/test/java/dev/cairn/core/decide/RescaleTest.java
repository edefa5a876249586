package dev.cairn.core.decide;

import static dev.cairn.core.testing.Fixtures.JOB;
import static dev.cairn.core.testing.Fixtures.SOURCE;
import static dev.cairn.core.testing.Fixtures.attempt;
import static dev.cairn.core.testing.Fixtures.config;
import static dev.cairn.core.testing.Fixtures.spec;
import static dev.cairn.core.testing.Fixtures.status;
import static dev.cairn.core.testing.Fixtures.stop;
import static dev.cairn.core.testing.Fixtures.tick;
import static dev.cairn.core.testing.Fixtures.vertex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.core.events.Command;
import dev.cairn.core.testing.Fixtures;
import dev.cairn.core.testing.Scenario;
import dev.cairn.core.testing.Then;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CommandRejected;
import dev.cairn.events.JobRestored;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.OperatorStateMode;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RestoredTask;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.TaskParallelism;
import dev.cairn.events.TaskRescale;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.keygroups.KeyGroupRanges;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Given-when-then: a rescale (Flink's Kubernetes operator's savepoint upgrade): a RUNNING job stops with a
 * savepoint and resumes from it with the new parallelism, its states handed out by key group; a stopped job resumes
 * at once; what cannot be rescaled is refused with a reason and the job keeps its parallelism.
 */
class RescaleTest {

    private static final String COUNT = "count";

    /** source x2 (triggered; its positions a union state) -> count x2 (keyed by its key groups). */
    private static JobSpec job() {
        return spec(JOB, config().setRetained(2), vertex(SOURCE, 2, true, true), vertex(COUNT, 2, false, true));
    }

    /** Each subtask's ack of {@code id}, declaring how its state splits: the count by key group, the source a union. */
    private static List<Command.Acknowledge> declaredAcks(Scenario scenario, long id) {
        List<Command.Acknowledge> acks = new ArrayList<>();
        for (TaskVertex vertex : scenario.state().spec(JOB).orElseThrow().getTasks()) {
            for (int subtask = 0; subtask < vertex.getParallelism(); subtask++) {
                var ack = Fixtures.ack(JOB, id, vertex.getTaskId(), subtask, attempt(vertex.getTaskId(), subtask, 1),
                        10);
                if (vertex.getTaskId().equals(COUNT)) {
                    ack.getStateHandle().setKeyGroups(KeyGroupRanges.forSubtask(128, vertex.getParallelism(),
                            subtask));
                } else {
                    ack.getStateHandle().setOperatorStateMode(OperatorStateMode.UNION);
                }
                acks.add(new Command.Acknowledge(ack));
            }
        }
        return acks;
    }

    private static Scenario ackDeclared(Scenario scenario, long id, long now) {
        declaredAcks(scenario, id).forEach(ack -> scenario.and(ack, now));
        return scenario;
    }

    private static Command.Rescale rescale(String requestId, String taskId, int parallelism) {
        return new Command.Rescale(RescaleJob.newBuilder().setJobId(JOB).setRequestId(requestId)
                .setTasks(List.of(new TaskRescale(taskId, parallelism))).setRequester("test").setTimestampMs(0)
                .build(), 0.0);
    }

    private static Scenario runningWithACheckpoint() {
        return ackDeclared(Scenario.runningJob(job(), 1000).and(tick(), 1000), 1, 1100);
    }

    private static List<SubtaskState> partsOf(Then then, String taskId) {
        return then.completedRecords().stream().map(CompletedTopicRecord::value)
                .filter(RestorePart.class::isInstance).flatMap(p -> ((RestorePart) p).getStates().stream())
                .filter(s -> s.getTaskId().equals(taskId)).toList();
    }

    @Test
    void shouldStopWithASavepointThenResumeFromItWithTheNewParallelism() {
        Then stopping = runningWithACheckpoint().when(rescale("r-1", COUNT, 3), 2000);

        stopping.thenTypes(RescaleJob.class, dev.cairn.events.PeriodicTriggerStopped.class,
                dev.cairn.events.RequestQueued.class, dev.cairn.events.RequestDequeued.class,
                CheckpointTriggered.class, RequestOutcome.class);
        CheckpointTriggered savepoint = stopping.single(CheckpointTriggered.class);
        assertThat(savepoint.getOptions().getPostCheckpointAction()).isEqualTo(PostCheckpointAction.SUSPEND);
        assertThat(stopping.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.TRIGGERED);
        assertThat(stopping.job(JOB).getPendingRescale().getRequestId()).isEqualTo("r-1");

        Then then = ackDeclared(stopping.scenario(), 2, 2100).when(tick(), 2200);
        Scenario done = stopping.scenario();

        List<JobSpec> specs = done.journal().stream().filter(JobSpec.class::isInstance).map(JobSpec.class::cast)
                .toList();
        JobSpec rescaled = specs.get(specs.size() - 1);
        assertThat(rescaled.getTasks()).extracting(TaskVertex::getTaskId, TaskVertex::getParallelism,
                TaskVertex::getMaxParallelism).containsExactly(tuple(SOURCE, 2, 128),
                tuple(COUNT, 3, 128));
        CheckpointCompleted completed = done.journal().stream().filter(CheckpointCompleted.class::isInstance)
                .map(CheckpointCompleted.class::cast).filter(c -> c.getCheckpointId() == 2).findFirst().orElseThrow();
        assertThat(completed.getParallelism()).contains(new TaskParallelism(COUNT, 2, 128));
        JobRestored restored = done.journal().stream().filter(JobRestored.class::isInstance)
                .map(JobRestored.class::cast).findFirst().orElseThrow();
        assertThat(restored.getRestorePoint().getCheckpointId()).isEqualTo(2);
        assertThat(restored.getRequestId()).isEqualTo("r-1");
        List<RequestOutcome> outcomes = done.journal().stream().filter(RequestOutcome.class::isInstance)
                .map(RequestOutcome.class::cast).filter(o -> "r-1".equals(o.getRequestId())).toList();
        assertThat(outcomes).extracting(RequestOutcome::getStatus).as("one outcome once the job runs again")
                .containsExactly(RequestStatus.TRIGGERED, RequestStatus.COMPLETED);
        assertThat(done.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(done.job(JOB).getPendingRescale()).isNull();
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void shouldHandTheSavepointsKeyGroupsToTheNewSubtasks() {
        Scenario stopping = runningWithACheckpoint().and(rescale("r-1", COUNT, 3), 2000);
        List<Command.Acknowledge> acks = declaredAcks(stopping, 2);
        acks.subList(0, acks.size() - 1).forEach(ack -> stopping.and(ack, 2100));

        Then then = stopping.when(acks.get(acks.size() - 1), 2100);

        assertThat(partsOf(then, COUNT)).extracting(SubtaskState::getSubtaskIndex, SubtaskState::getFromSubtaskIndex)
                .containsExactly(tuple(0, 0), tuple(1, 0), tuple(1, 1), tuple(2, 1));
        assertThat(partsOf(then, SOURCE)).extracting(SubtaskState::getFromSubtaskIndex)
                .as("a task that keeps its parallelism reads its own states").containsOnly(-1);
        List<RestoredTask> tasks = then.completedRecords().stream().map(CompletedTopicRecord::value)
                .filter(RestorePart.class::isInstance).flatMap(p -> ((RestorePart) p).getTasks().stream())
                .distinct().toList();
        assertThat(tasks).contains(new RestoredTask(COUNT, 3, 128, 2), new RestoredTask(SOURCE, 2, 128, 2));
    }

    @Test
    void shouldRescaleAStoppedJobAtOnceFromItsRestorePoint() {
        Scenario stopped = ackDeclared(runningWithACheckpoint().and(stop("stop", PostCheckpointAction.SUSPEND),
                1500), 2, 1600);
        assertThat(stopped.job(JOB).getStatus()).isEqualTo(JobStatus.FINISHED);

        Then then = stopped.when(rescale("r-2", COUNT, 1), 3000);

        then.thenTypes(RescaleJob.class, JobSpec.class, JobRestored.class, RequestOutcome.class,
                JobStatusChange.class, dev.cairn.events.PeriodicTriggerScheduled.class);
        assertThat(then.single(JobRestored.class).getRestorePoint().getCheckpointId()).isEqualTo(2);
        assertThat(then.single(RequestOutcome.class).getStatus()).isEqualTo(RequestStatus.COMPLETED);
        assertThat(then.state().vertex(JOB, COUNT).orElseThrow().getParallelism()).isEqualTo(1);
        assertThat(partsOf(then, COUNT)).extracting(SubtaskState::getSubtaskIndex, SubtaskState::getFromSubtaskIndex)
                .containsExactly(tuple(0, 0), tuple(0, 1));
    }

    @Test
    void shouldRefuseToRescaleStatesThatDeclareNothingToSplitBy() {
        Scenario scenario = Scenario.runningJob(job(), 1000).and(tick(), 1000).ackAll(JOB, 1, 1100);

        Then then = scenario.when(rescale("r-3", COUNT, 3), 2000);

        then.thenTypes(RescaleJob.class, RequestOutcome.class);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(outcome.getMessage()).contains("keeps running with its parallelism",
                "cannot go from parallelism 2 to 3", "declares neither key groups nor an operator state mode");
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(then.job(JOB).getPendingRescale()).isNull();
    }

    @Test
    void shouldRefuseAParallelismAboveTheMaxParallelismAndUnknownTasks() {
        Scenario scenario = runningWithACheckpoint();

        assertThat(scenario.when(rescale("r-4", COUNT, 129), 2000).single(RequestOutcome.class).getMessage())
                .contains("from 1 to its max parallelism 128, not 129");
        assertThat(scenario.when(rescale("r-5", "nope", 2), 2000).single(RequestOutcome.class).getMessage())
                .contains("has no task nope", "count, source");
        assertThat(scenario.when(rescale("r-6", COUNT, 2), 2000).single(RequestOutcome.class).getMessage())
                .contains("already run with that parallelism");
    }

    @Test
    void shouldRejectARescaleWhoseTargetOrTaskIdsAreOutOfBounds() {
        Scenario scenario = runningWithACheckpoint();
        RescaleJob outside = RescaleJob.newBuilder(rescale("r-8", COUNT, 3).event())
                .setTargetLocation("file:///savepoints/../elsewhere").build();
        RescaleJob longId = RescaleJob.newBuilder(rescale("r-9", COUNT, 3).event())
                .setTasks(List.of(new TaskRescale("t".repeat(300), 3))).build();

        Then then = scenario.when(new Command.Rescale(outside, 0.0), 2000);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("targetLocation");
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(scenario.when(new Command.Rescale(longId, 0.0), 2000).single(CommandRejected.class).getReason())
                .contains("task id");
    }

    @Test
    void shouldRejectAnAckWhoseKeyGroupsAreNoRange() {
        Scenario scenario = Scenario.runningJob(job(), 1000).and(tick(), 1000);
        var ack = Fixtures.ack(JOB, 1, COUNT, 0, attempt(COUNT, 0, 1), 10);
        ack.getStateHandle().setKeyGroups(new dev.cairn.events.KeyGroupRange(9, 3));

        Then then = scenario.when(new Command.Acknowledge(ack), 1100);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("keyGroups [9, 3] is no range");
    }

    @Test
    void shouldKeepTheJobRunningWithItsParallelismWhenTheStopFails() {
        Scenario stopping = runningWithACheckpoint().and(rescale("r-7", COUNT, 3), 2000);

        Then then = stopping.when(new Command.Decline(Fixtures.declined(2, SOURCE, 0,
                CheckpointFailureReason.CHECKPOINT_DECLINED)), 2100);

        assertThat(then.single(CheckpointAborted.class).getCheckpointId()).isEqualTo(2);
        RequestOutcome outcome = then.single(RequestOutcome.class);
        assertThat(outcome.getRequestId()).isEqualTo("r-7");
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        assertThat(then.job(JOB).getPendingRescale()).isNull();
        assertThat(then.job(JOB).getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(then.state().vertex(JOB, COUNT).orElseThrow().getParallelism()).isEqualTo(2);
    }

    @Test
    void shouldHandTheRestorePointToTheNewParallelismWhenASpecChangesIt() {
        Scenario scenario = runningWithACheckpoint().and(status(JobStatus.SUSPENDED), 1500);
        JobSpec wider = spec(JOB, config().setRetained(2), vertex(SOURCE, 2, true, true), vertex(COUNT, 4, false,
                true));

        Then then = scenario.when(new Command.RegisterJob(wider, 0.0), 2000);

        assertThat(partsOf(then, COUNT)).extracting(SubtaskState::getSubtaskIndex, SubtaskState::getFromSubtaskIndex)
                .containsExactly(tuple(0, 0), tuple(1, 0), tuple(2, 1), tuple(3, 1));
        JobSpec retimed = spec(JOB, config().setRetained(2).setIntervalMs(5000), vertex(SOURCE, 2, true, true),
                vertex(COUNT, 2, false, true));
        assertThat(runningWithACheckpoint().when(new Command.RegisterJob(retimed, 0.0), 2000).completedRecords())
                .as("a spec that keeps the parallelism publishes nothing again").isEmpty();
    }

    @Test
    void shouldRecordTheParallelismOfTheAcknowledgingTasksUnlessTheirIdsWouldMakeACompletionTooLarge() {
        assertThat(StateAssignment.parallelismOf(job())).containsExactly(new TaskParallelism(SOURCE, 2, 128),
                new TaskParallelism(COUNT, 2, 128));
        List<TaskVertex> many = new ArrayList<>();
        for (int i = 0; i < 1_100; i++) {
            many.add(vertex(String.format("%0250d", i), 1, i == 0, true));
        }
        JobSpec huge = JobSpec.newBuilder(job()).setTasks(many).build();

        assertThat(StateAssignment.parallelismOf(huge)).as("1,100 ids of 250 bytes: a restore counts states instead")
                .isEmpty();
    }

    @Test
    void shouldRefuseASpecThatChangesTheMaxParallelismOfKeptState() {
        Scenario scenario = runningWithACheckpoint();
        JobSpec changed = spec(JOB, config().setRetained(2), vertex(SOURCE, 2, true, true),
                TaskVertex.newBuilder(vertex(COUNT, 2, false, true)).setMaxParallelism(256).build());

        Then then = scenario.when(new Command.RegisterJob(changed, 0.0), 2000);

        then.thenTypes(CommandRejected.class);
        assertThat(then.single(CommandRejected.class).getReason()).contains("tasks[count].maxParallelism: 256 differs"
                + " from 128", "checkpoint 1", "keep 128");
        assertThat(then.state().vertex(JOB, COUNT).orElseThrow().getMaxParallelism()).isEqualTo(128);
        scenario.when(status(JobStatus.SUSPENDED), 2100).thenTypes(JobStatusChange.class,
                dev.cairn.events.PeriodicTriggerStopped.class);
    }
}
