package dev.cairn.kit.task;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.SavepointFormat;
import dev.cairn.sidecar.hook.CheckpointOptions;
import org.junit.jupiter.api.Test;

class SourceStopTest {

    private static CheckpointOptions options(PostCheckpointAction action) {
        return new CheckpointOptions(BackupType.FULL, SavepointFormat.CANONICAL, action, AlignmentType.ALIGNED, -1);
    }

    @Test
    void shouldPauseAtAStopAndReadOnWhenItIsAborted() {
        // given
        SourceStop stop = new SourceStop(false);

        // when
        boolean ended = stop.snapshot(4, options(PostCheckpointAction.SUSPEND));

        // then
        assertThat(ended).isFalse();
        assertThat(stop.idle()).isTrue();
        assertThat(stop.aborted(3)).as("another checkpoint's abort").isFalse();
        assertThat(stop.idle()).isTrue();
        assertThat(stop.aborted(4)).isTrue();
        assertThat(stop.idle()).isFalse();
    }

    @Test
    void shouldNotPauseAtAStopAbortedBeforeItsSnapshot() {
        // given
        SourceStop stop = new SourceStop(false);
        stop.aborted(4);

        // when
        stop.snapshot(4, options(PostCheckpointAction.SUSPEND));

        // then
        assertThat(stop.idle()).isFalse();
    }

    @Test
    void shouldEndTheInputAtADrainAndStopWhenItCompletes() {
        // given
        SourceStop stop = new SourceStop(false);

        // when
        boolean ended = stop.snapshot(4, options(PostCheckpointAction.TERMINATE));
        stop.stopped(true);

        // then
        assertThat(ended).isTrue();
        assertThat(stop.isStopped()).isTrue();
        assertThat(stop.inputEnded()).isTrue();
    }

    @Test
    void shouldKeepAnEndedInputEndedInEveryLaterSnapshot() {
        // given a subtask restored from a drained state
        SourceStop stop = new SourceStop(true);

        // when / then
        assertThat(stop.idle()).isTrue();
        assertThat(stop.snapshot(5, options(PostCheckpointAction.NONE))).isTrue();
        assertThat(stop.isStopped()).isFalse();
    }

    @Test
    void shouldNeitherPauseNorEndAtAnOrdinaryCheckpoint() {
        // given
        SourceStop stop = new SourceStop(false);

        // when / then
        assertThat(stop.snapshot(5, options(PostCheckpointAction.NONE))).isFalse();
        assertThat(stop.idle()).isFalse();
    }
}
