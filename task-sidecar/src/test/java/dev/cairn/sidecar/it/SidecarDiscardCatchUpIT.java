package dev.cairn.sidecar.it;

import static dev.cairn.sidecar.it.ControlRecordsBed.WAIT;
import static dev.cairn.sidecar.it.ControlRecordsBed.discarded;
import static dev.cairn.sidecar.it.ControlRecordsBed.stateDiscarded;
import static dev.cairn.sidecar.it.ControlRecordsBed.subtaskObject;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.DiscardReason;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.DiscardedState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A task sidecar against hand-written discards on the control topic: those published while it runs, and those
 * published shortly before it started, which its worker may not have deleted.
 */
class SidecarDiscardCatchUpIT extends ControlRecordsTestBase {

    /** Long enough for a wrongly handed-out discard to reach the hook once the records were read. */
    private static final Duration QUIET = Duration.ofMillis(500);

    @Test
    void shouldHandTheWorkerWhatWasDiscardedBeforeItStartedOnceItRestored() {
        // given discards of subtask map-2, by an earlier attempt, and another subtask's, before the sidecar starts
        String job = CoordinatorTestBed.uniqueJobId("catch-up");
        TaskAttempt earlier = new TaskAttempt(job, "map", 2, "an-attempt-that-ended");
        bed.control(job, stateDiscarded(job, 3, DiscardReason.SUBSUMED,
                subtaskObject("map", 2, "file:///s/3/map-2", false), subtaskObject("map", 2, "file:///s/sst-1", true),
                subtaskObject("map", 1, "file:///s/3/map-1", false)));
        bed.control(job, discarded(earlier, 5, AckDiscardStatus.LATE, "file:///s/5/map-2"));

        // when
        RecordingHook hook = RecordingHook.acking();
        bed.start(bed.taskConfig(job, "map", 2), hook);

        // then its worker restores first, then deletes the subtask's three objects, once each
        await().atMost(WAIT).until(() -> hook.discards().size() == 3);
        assertThat(hook.calls().get(0)).isEqualTo("restore none");
        assertThat(hook.discards()).extracting(DiscardedState::checkpointId, DiscardedState::location,
                DiscardedState::shared, DiscardedState::cause).containsExactly(
                        tuple(3L, "file:///s/3/map-2", false, "SUBSUMED"),
                        tuple(3L, "file:///s/sst-1", true, "SUBSUMED"),
                        tuple(5L, "file:///s/5/map-2", false, "LATE"));
        await().during(QUIET).atMost(QUIET.multipliedBy(4)).until(() -> hook.discards().size() == 3);
    }

    @Test
    void shouldHandTheWorkerItsObjectsOnceWhenACheckpointsStateIsDiscardedWhileItRuns() {
        // given
        String job = CoordinatorTestBed.uniqueJobId("live-discard");
        RecordingHook hook = RecordingHook.acking();
        Sidecar sidecar = bed.start(bed.taskConfig(job, "sink", 0), hook);

        // when checkpoint 4's state is discarded twice (a replay), naming this subtask's object and another's
        bed.control(job, stateDiscarded(job, 4, DiscardReason.ABORTED,
                subtaskObject("sink", 0, "file:///s/4/sink-0", false), subtaskObject("sink", 1, "file:///s/4/sink-1",
                        false)));
        bed.control(job, stateDiscarded(job, 4, DiscardReason.ABORTED,
                subtaskObject("sink", 0, "file:///s/4/sink-0", false)));
        bed.control(job, discarded(sidecar.attempt(), 6, AckDiscardStatus.UNKNOWN, "file:///marker"));

        // then
        await().atMost(WAIT).until(() -> hook.discards().size() == 2);
        assertThat(hook.discards()).extracting(DiscardedState::location, DiscardedState::reason)
                .containsExactly(tuple("file:///s/4/sink-0", DiscardReason.ABORTED), tuple("file:///marker", null));
    }
}
