package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobFailed;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JobStatus;
import dev.cairn.events.JobStatusChange;
import dev.cairn.events.ParticipantAcknowledged;
import dev.cairn.events.ParticipantsTriggered;
import dev.cairn.events.PeriodicTriggerScheduled;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.TriggerRequest;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfig;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Stop-with-savepoint, finished tasks and a coordinator-side participant, end to end: the real coordinator on a
 * real broker, and real sidecars with recording Java hooks as the workers.
 */
class FlinkBehavioursIT extends SidecarTestBase {

    @Test
    void shouldStopTheJobWithASavepointTheTasksDrainForAndTellThemItIsTheEnd() {
        // given a running job of two tasks whose checkpoints complete
        String job = CoordinatorTestBed.uniqueJobId("stop");
        bed.register(Events.job(job, 200, 10_000, "source", "sink"));
        RecordingHook source = RecordingHook.acking();
        RecordingHook sink = RecordingHook.acking();
        sidecars.start(job, "source", 0, source);
        sidecars.start(job, "sink", 0, sink);
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job));

        // when the user stops it with a savepoint, draining first
        request(stop(job, "stop-1", PostCheckpointAction.TERMINATE));

        // then the savepoint completes, the tasks were told it is terminal and to drain, and the job is FINISHED
        RequestOutcome outcome = bed.awaitJournal(RequestOutcome.class,
                o -> o.getRequestId().equals("stop-1") && o.getStatus() != RequestStatus.TRIGGERED);
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.COMPLETED);
        long savepoint = outcome.getCheckpointId();
        bed.awaitJournal(JobStatusChange.class, c -> c.getJobId().equals(job) && c.getStatus() == JobStatus.FINISHED);
        for (RecordingHook hook : List.of(source, sink)) {
            await().atMost(CoordinatorTestBed.WAIT).until(() -> hook.completionNotices().stream()
                    .anyMatch(n -> n.checkpointId() == savepoint));
            SnapshotRequest taken = hook.snapshots().stream().filter(r -> r.checkpointId() == savepoint)
                    .findFirst().orElseThrow();
            assertThat(taken.type()).isEqualTo(CheckpointType.SAVEPOINT);
            assertThat(taken.options().synchronous()).isTrue();
            assertThat(taken.options().drain()).isTrue();
            CheckpointCompletion notice = hook.completionNotices().stream()
                    .filter(n -> n.checkpointId() == savepoint).findFirst().orElseThrow();
            assertThat(notice.stopping()).isTrue();
            assertThat(notice.drain()).isTrue();
        }
        assertThat(bed.journal(CheckpointTriggered.class, t -> t.getJobId().equals(job)
                && t.getCheckpointId() > savepoint)).as("no trigger after the stop").isEmpty();
    }

    @Test
    void shouldKeepTheJobRunningAndResumeCheckpointsWhenATaskDeclinesTheStop() {
        // given a job whose sink declines every savepoint
        String job = CoordinatorTestBed.uniqueJobId("stop-declined");
        bed.register(Events.job(job, 200, 10_000, "source", "sink"));
        RecordingHook source = RecordingHook.acking();
        sidecars.start(job, "source", 0, source);
        sidecars.start(job, "sink", 0, RecordingHook.decliningSavepoints("cannot stop now"));
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job));

        // when the user stops it and the sink declines
        request(stop(job, "stop-2", PostCheckpointAction.SUSPEND));
        RequestOutcome outcome = bed.awaitJournal(RequestOutcome.class,
                o -> o.getRequestId().equals("stop-2") && o.getStatus() != RequestStatus.TRIGGERED);

        // then the stop failed at task level: the job is failed over (Flink), keeps RUNNING, the tasks are told
        // to resume, and periodic checkpoints complete again
        assertThat(outcome.getStatus()).isEqualTo(RequestStatus.FAILED);
        long savepoint = outcome.getCheckpointId();
        assertThat(bed.awaitJournal(JobFailed.class, f -> f.getJobId().equals(job)).getCause())
                .startsWith("Stop-with-savepoint " + savepoint + " failed");
        bed.awaitJournal(PeriodicTriggerScheduled.class, s -> s.getJobId().equals(job)
                && s.getTimestampMs() >= bed.awaitJournal(CheckpointAborted.class,
                        a -> a.getCheckpointId() == savepoint && a.getJobId().equals(job)).getTimestampMs());
        CheckpointCompleted after = bed.awaitJournal(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() > savepoint);
        assertThat(after.getType()).isEqualTo(CheckpointType.CHECKPOINT);
        await().atMost(CoordinatorTestBed.WAIT).until(() -> source.abortNotices().stream()
                .anyMatch(a -> a.checkpointId() == savepoint));
        CheckpointAbort told = source.abortNotices().stream().filter(a -> a.checkpointId() == savepoint)
                .findFirst().orElseThrow();
        assertThat(told.stopFailed()).isTrue();
        assertThat(bed.journal(JobStatusChange.class, c -> c.getJobId().equals(job))).isEmpty();
    }

    @Test
    void shouldStopTriggeringAFinishedTaskCountItsFinalStateAndFinishTheJobWithTheLastTask() {
        // given a running job of two tasks
        String job = CoordinatorTestBed.uniqueJobId("finish");
        bed.register(Events.job(job, 200, 10_000, "source", "sink"));
        RecordingHook source = RecordingHook.acking();
        RecordingHook sink = RecordingHook.acking();
        Sidecar sourceSidecar = sidecars.start(job, "source", 0, source);
        Sidecar sinkSidecar = sidecars.start(job, "sink", 0, sink);
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job));

        // when the source's bounded input ends and it finishes with a final state
        sourceSidecar.finish("file:///final/source-0", 77);
        TaskFinished finished = bed.awaitJournal(TaskFinished.class, f -> f.getJobId().equals(job));

        // then later checkpoints do not trigger it, count it as acknowledged and hold its final state
        CheckpointTriggered without = bed.awaitJournal(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && t.getFinishedSubtasks() == 1);
        assertThat(without.getAcksExpected()).isEqualTo(1);
        assertThat(without.getFinishedStateBytes()).isEqualTo(77);
        CheckpointCompleted completed = bed.awaitJournal(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() == without.getCheckpointId());
        assertThat(completed.getSubtaskCount()).isEqualTo(2);
        assertThat(completed.getTotalSizeBytes()).isEqualTo(77 + 1_000);
        assertThat(source.snapshots()).extracting(SnapshotRequest::checkpointId)
                .doesNotContain(without.getCheckpointId());
        assertThat(finished.getFinalState().getLocation()).isEqualTo("file:///final/source-0");

        // and when the last task finishes, the job is FINISHED
        sinkSidecar.finish(Optional.empty());
        bed.awaitJournal(JobStatusChange.class, c -> c.getJobId().equals(job) && c.getStatus() == JobStatus.FINISHED);
    }

    @Test
    void shouldAskTheParticipantBeforeTheTasksKeepItsStateAndHandItBackOnRestore() {
        // given a job whose spec names a participant (an external source's reader position), run by a sidecar
        String job = CoordinatorTestBed.uniqueJobId("participant");
        JobSpec spec = Events.job(job, 200, 10_000, "source");
        spec.setParticipants(List.of("reader"));
        bed.register(spec);
        RecordingHook reader = RecordingHook.acking();
        RecordingHook source = RecordingHook.acking();
        sidecars.start(participantConfig(job), reader);
        sidecars.start(job, "source", 0, source);

        // when a checkpoint completes
        CheckpointCompleted completed = bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job));

        // then the participant was asked first, the tasks after its answer, and its state is in the checkpoint
        long id = completed.getCheckpointId();
        List<Object> order = bed.journal(Object.class, e -> isStepOf(e, job, id));
        assertThat(order).extracting(e -> e.getClass().getSimpleName()).containsSubsequence(
                "ParticipantsTriggered", "ParticipantAcknowledged", "CheckpointTriggered", "CheckpointCompleted");
        assertThat(completed.getParticipantStates()).singleElement().satisfies(state -> {
            assertThat(state.getParticipant()).isEqualTo("reader");
            assertThat(state.getState().getLocation()).isEqualTo("file:///cairn-it/" + job + "/chk-" + id + "/reader");
        });
        assertThat(reader.snapshots()).extracting(SnapshotRequest::participant).contains("reader");

        // and a restarted participant gets its own state back from the newest retained checkpoint
        bed.changeStatus(job, JobStatus.SUSPENDED);
        bed.awaitJournal(JobStatusChange.class, c -> c.getJobId().equals(job) && c.getStatus() == JobStatus.SUSPENDED);
        CheckpointCompleted newest = bed.journal(CheckpointCompleted.class, c -> c.getJobId().equals(job)).stream()
                .reduce((a, b) -> b).orElseThrow();
        RecordingHook restarted = RecordingHook.acking();
        sidecars.start(participantConfig(job), restarted);
        await().atMost(CoordinatorTestBed.WAIT).until(() -> !restarted.restores().isEmpty());
        RestorePoint point = restarted.restores().get(0).orElseThrow();
        assertThat(point.checkpointId()).isEqualTo(newest.getCheckpointId());
        assertThat(point.location()).isEqualTo(newest.getParticipantStates().get(0).getState().getLocation());
    }

    @Test
    void shouldAskTheMasterHookOnlyAfterTheParticipantAnswered() {
        // given a job with a participant (Flink: an operator coordinator) and a master hook, each run by a sidecar
        String job = CoordinatorTestBed.uniqueJobId("hooks");
        JobSpec spec = Events.job(job, 200, 10_000, "source");
        spec.setParticipants(List.of("reader"));
        spec.setMasterHooks(List.of("offsets"));
        bed.register(spec);
        RecordingHook reader = RecordingHook.acking();
        RecordingHook offsets = RecordingHook.acking();
        sidecars.start(participantConfig(job), reader);
        sidecars.start(sidecars.participantConfig(job, "offsets"), offsets);
        sidecars.start(job, "source", 0, RecordingHook.acking());

        // when a checkpoint completes
        CheckpointCompleted completed = bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job));

        // then the participant was asked first, the master hook once it answered, the tasks last
        long id = completed.getCheckpointId();
        List<String> order = bed.journal(Object.class, e -> isStepOf(e, job, id)).stream()
                .map(e -> e instanceof ParticipantsTriggered p ? "asked " + p.getParticipants()
                        : e instanceof ParticipantAcknowledged a ? "acked " + a.getParticipant()
                        : e.getClass().getSimpleName()).toList();
        assertThat(order).containsExactly("asked [reader]", "acked reader", "asked [offsets]", "acked offsets",
                "CheckpointTriggered", "CheckpointCompleted");
        assertThat(completed.getParticipantStates()).extracting(state -> state.getParticipant())
                .containsExactly("reader", "offsets");
    }

    private static boolean isStepOf(Object event, String job, long id) {
        return event instanceof ParticipantsTriggered p && p.getJobId().equals(job) && p.getCheckpointId() == id
                || event instanceof ParticipantAcknowledged a && a.getJobId().equals(job) && a.getCheckpointId() == id
                || event instanceof CheckpointTriggered t && t.getJobId().equals(job) && t.getCheckpointId() == id
                || event instanceof CheckpointCompleted c && c.getJobId().equals(job) && c.getCheckpointId() == id;
    }

    private static SidecarConfig participantConfig(String job) {
        return sidecars.participantConfig(job, "reader");
    }

    private static TriggerRequest stop(String job, String requestId, PostCheckpointAction action) {
        return Events.triggerRequest(job, requestId).setType(CheckpointType.SAVEPOINT).setPostCheckpointAction(action)
                .setRequester("it").build();
    }

    private static void request(TriggerRequest request) {
        bed.sendRequest(request.getJobId(), new RequestEnvelope(request));
    }
}
