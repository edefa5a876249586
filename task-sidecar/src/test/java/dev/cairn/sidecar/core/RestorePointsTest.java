package dev.cairn.sidecar.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.sidecar.hook.RestorePoint;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RestorePointsTest {

    @Test
    void workerRestoresItsOwnSubtasksStateFromTheNewestRetainedCheckpoint() {
        RetainedCheckpoints retained = retained(checkpoint(4, "map", 0), checkpoint(5, "map", 0, "map", 1));

        Optional<RestorePoint> point = RestorePoints.latest(Optional.of(retained), "map", 1);

        assertThat(point).contains(new RestorePoint(5, "file:///cp/chk-5/map-1", 501));
    }

    @Test
    void workerStartsFreshWhenNothingIsRetained() {
        assertThat(RestorePoints.latest(Optional.empty(), "map", 0)).isEmpty();
        assertThat(RestorePoints.latest(Optional.of(retained()), "map", 0)).isEmpty();
    }

    @Test
    void workerStartsFreshWhenTheNewestCheckpointHoldsNothingForItsSubtask() {
        // an older checkpoint has state for sink 0, but the newest one (after a plan change) has not
        RetainedCheckpoints retained = retained(checkpoint(4, "sink", 0), checkpoint(5, "map", 0));

        assertThat(RestorePoints.latest(Optional.of(retained), "sink", 0)).isEmpty();
    }

    private static RetainedCheckpoints retained(CheckpointCompleted... checkpoints) {
        return RetainedCheckpoints.newBuilder().setJobId("job").setCheckpoints(List.of(checkpoints)).build();
    }

    /** A checkpoint with states for (task, subtask) pairs. */
    private static CheckpointCompleted checkpoint(long id, Object... taskAndSubtask) {
        List<SubtaskState> states = new java.util.ArrayList<>();
        for (int i = 0; i < taskAndSubtask.length; i += 2) {
            String task = (String) taskAndSubtask[i];
            int subtask = (Integer) taskAndSubtask[i + 1];
            states.add(SubtaskState.newBuilder().setTaskId(task).setSubtaskIndex(subtask).setAttemptId("a")
                    .setHandle(StateHandle.newBuilder().setLocation("file:///cp/chk-" + id + "/" + task + "-" + subtask)
                            .setSizeBytes(id * 100 + subtask).build())
                    .build());
        }
        return CheckpointCompleted.newBuilder().setJobId("job").setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setTriggerTimestampMs(0).setCompletionTimestampMs(1).setStorageLocation("file:///cp/chk-" + id)
                .setSubtaskStates(states).setTotalSizeBytes(0).build();
    }
}
