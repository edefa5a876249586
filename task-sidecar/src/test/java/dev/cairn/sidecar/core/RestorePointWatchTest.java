package dev.cairn.sidecar.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RestorePointRejected;
import java.util.List;
import org.junit.jupiter.api.Test;

class RestorePointWatchTest {

    private static final TaskAttempt ATTEMPT = new TaskAttempt("job", "map", 0, "a-1");

    private static RestorePointRejected rejected(String job, long checkpointId, long fallback) {
        return RestorePointRejected.newBuilder().setJobId(job).setCheckpointId(checkpointId)
                .setFallback(CheckpointCompleted.newBuilder().setJobId(job).setCheckpointId(fallback)
                        .setType(CheckpointType.CHECKPOINT).setTriggerTimestampMs(0).setCompletionTimestampMs(1)
                        .setStorageLocation("file:///cp/" + fallback).setSubtaskStates(List.of())
                        .setTotalSizeBytes(0).build())
                .setTaskId("map").setSubtaskIndex(1).setAttemptId("b-1").setMessage("the state is corrupt")
                .setTimestampMs(2).build();
    }

    @Test
    void shouldAskForARestartWhenTheJobFallsBackFromThePointTheWorkerRestored() {
        RestorePointWatch watch = new RestorePointWatch();
        watch.restored(7);

        List<SidecarAction> actions = watch.onRejected(rejected("job", 7, 6), ATTEMPT);

        assertThat(actions).singleElement().isInstanceOfSatisfying(SidecarAction.Restart.class, restart ->
                assertThat(restart.why()).contains("falls back from checkpoint 7", "checkpoint 6",
                        "the state is corrupt"));
    }

    @Test
    void shouldGoOnWhenTheWorkerRestoredAnotherPointOrAnotherJobFellBack() {
        RestorePointWatch fallbackRestored = new RestorePointWatch();
        fallbackRestored.restored(6);
        RestorePointWatch fresh = new RestorePointWatch();
        fresh.restored(-1);

        assertThat(fallbackRestored.onRejected(rejected("job", 7, 6), ATTEMPT)).isEmpty();
        assertThat(fresh.onRejected(rejected("job", 7, 6), ATTEMPT)).isEmpty();
        assertThat(fallbackRestored.onRejected(rejected("other", 6, 5), ATTEMPT)).isEmpty();
    }
}
