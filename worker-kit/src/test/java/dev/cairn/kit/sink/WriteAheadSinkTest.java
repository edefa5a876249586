package dev.cairn.kit.sink;

import static dev.cairn.kit.sink.Records.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.kit.sink.RestorePlan.Verdict;
import dev.cairn.kit.storage.FileStorage;
import dev.cairn.sidecar.hook.RestorePoint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteAheadSinkTest {

    @TempDir
    Path dir;

    private final InMemoryCommitter kafka = new InMemoryCommitter();

    private WriteAheadSink<String, String> sink(int subtask, InMemoryCommitter committer) {
        return new WriteAheadSink<>(WriteAheadSinkConfig.of("orders", subtask, "out", "localhost:9092"),
                new StringSerializer(), new StringSerializer(), committer);
    }

    private WriteAheadSink<String, String> started() throws IOException {
        WriteAheadSink<String, String> sink = sink(0, kafka);
        sink.restore(Optional.empty());
        return sink;
    }

    private static void send(WriteAheadSink<String, String> sink, String... keysAndValues) {
        for (String text : keysAndValues) {
            sink.send(text, text);
        }
    }

    private String location(long checkpointId) {
        return dir.resolve("chk-" + checkpointId).toUri().toString();
    }

    @Test
    void shouldWriteNothingBeforeACheckpointCompletes() throws IOException {
        // given
        var sink = started();
        send(sink, "a", "b");

        // when
        SinkSnapshot snapshot = sink.snapshot(1, location(1));

        // then
        assertThat(kafka.output).isEmpty();
        assertThat(snapshot.records()).isEqualTo(2);
        assertThat(snapshot.location()).endsWith("chk-1/sink-orders-0.state");
        assertThat(sink.snapshot(2, location(2)).records()).as("still buffered").isEqualTo(2);
    }

    @Test
    void shouldCommitTheEpochsUpToTheCompletedCheckpointWithItsMarker() throws IOException {
        // given
        var sink = started();
        send(sink, "a");
        sink.snapshot(1, location(1));
        send(sink, "b");
        sink.snapshot(2, location(2));
        send(sink, "c");

        // when
        sink.notifyComplete(1);

        // then
        assertThat(kafka.output).isEqualTo(records("a"));
        assertThat(kafka.markers).containsExactly(1L);
        assertThat(sink.snapshot(3, location(3)).records()).as("b and c still buffered").isEqualTo(2);
    }

    @Test
    void shouldCommitAnAbortedCheckpointsRecordsWithTheNextCompletedOne() throws IOException {
        // given
        var sink = started();
        send(sink, "a");
        sink.snapshot(1, location(1));
        sink.notifyAborted(1);
        send(sink, "b");
        sink.snapshot(2, location(2));

        // when
        sink.notifyComplete(2);

        // then
        assertThat(kafka.output).isEqualTo(records("a", "b"));
        assertThat(kafka.markers).containsExactly(2L);
        assertThat(sink.snapshot(3, location(3)).records()).as("nothing left buffered").isZero();
    }

    @Test
    void shouldIgnoreALateCompletionOfACheckpointAlreadyCommitted() throws IOException {
        // given
        var sink = started();
        send(sink, "a");
        sink.snapshot(1, location(1));
        send(sink, "b");
        sink.snapshot(2, location(2));
        sink.notifyComplete(2);

        // when
        sink.notifyComplete(1);

        // then
        assertThat(kafka.output).isEqualTo(records("a", "b"));
        assertThat(kafka.markers).containsExactly(2L);
    }

    @Test
    void shouldCommitWhatTheOutputLacksWhenRestoringFromASnapshot() throws IOException {
        // given snapshot 2 holds epochs 1 and 2, and checkpoint 1 committed after it was taken
        var crashed = started();
        send(crashed, "a");
        crashed.snapshot(1, location(1));
        send(crashed, "b");
        SinkSnapshot two = crashed.snapshot(2, location(2));
        crashed.notifyComplete(1);

        // when a new incarnation restores checkpoint 2
        var restored = sink(0, kafka);
        RestorePlan plan = restored.restore(Optional.of(new RestorePoint(2, two.location(), two.sizeBytes())));

        // then
        assertThat(plan.verdict()).isEqualTo(Verdict.COMMIT_PENDING);
        assertThat(kafka.output).isEqualTo(records("a", "b"));
        assertThat(kafka.markers).containsExactly(1L, 2L);
        restored.notifyComplete(2);
        assertThat(kafka.markers).as("checkpoint 2 counts as committed").containsExactly(1L, 2L);
    }

    @Test
    void shouldRefuseToRestoreAPointNobodyChoseWhenTheOutputIsAheadOfIt() throws IOException {
        // given the output committed checkpoint 2, and the job's restore point is checkpoint 1
        var ahead = started();
        send(ahead, "a");
        SinkSnapshot one = ahead.snapshot(1, location(1));
        send(ahead, "b");
        ahead.snapshot(2, location(2));
        ahead.notifyComplete(2);

        // when a new incarnation restores checkpoint 1 that nobody chose
        var restored = sink(0, kafka);

        // then it refuses, naming the marker and the checkpoint, writes nothing, and stays stopped
        assertThatThrownBy(() -> restored.restore(Optional.of(new RestorePoint(1, one.location(), one.sizeBytes()))))
                .isInstanceOf(SinkFailedException.class)
                .hasMessageContaining("refuses to restore checkpoint 1")
                .hasMessageContaining("the epochs up to checkpoint 2")
                .hasMessageContaining("restart the sink later")
                .hasMessageContaining("restore the job from that checkpoint or savepoint");
        assertThat(kafka.output).isEqualTo(records("a", "b"));
        assertThat(kafka.markers).containsExactly(2L);
        assertThatThrownBy(() -> restored.send("c", "c")).isInstanceOf(SinkFailedException.class);
    }

    @Test
    void shouldGoBackToAChosenPointTheOutputIsAheadOf() throws IOException {
        // given the output committed checkpoint 2
        var ahead = started();
        send(ahead, "a");
        SinkSnapshot one = ahead.snapshot(1, location(1));
        send(ahead, "b");
        ahead.snapshot(2, location(2));
        ahead.notifyComplete(2);

        // when a user chose to restore checkpoint 1
        var restored = sink(0, kafka);
        RestorePlan plan = restored.restore(Optional.of(new RestorePoint(1, one.location(), one.sizeBytes(), true)));

        // then the marker goes back to 1 and nothing else is written
        assertThat(plan.verdict()).isEqualTo(Verdict.OUTPUT_AHEAD_OF_CHOSEN_POINT);
        assertThat(kafka.output).isEqualTo(records("a", "b"));
        assertThat(kafka.markers).containsExactly(2L, 1L);
    }

    @Test
    void shouldTakeTheNextSnapshotAfterTheRestoredCheckpointOnly() throws IOException {
        // given
        var first = started();
        send(first, "a");
        SinkSnapshot one = first.snapshot(1, location(1));
        var restored = sink(0, kafka);
        restored.restore(Optional.of(new RestorePoint(1, one.location(), one.sizeBytes())));

        // when / then
        assertThatThrownBy(() -> restored.snapshot(1, location(1))).isInstanceOf(IllegalArgumentException.class);
        send(restored, "b");
        assertThat(restored.snapshot(2, location(2)).records()).isEqualTo(1);
    }

    @Test
    void shouldRefuseASnapshotOfAnotherSubtaskBeforeTouchingKafka() throws IOException {
        // given
        var other = sink(1, new InMemoryCommitter());
        other.restore(Optional.empty());
        send(other, "a");
        SinkSnapshot snapshot = other.snapshot(1, location(1));
        var sink = sink(0, kafka);

        // when / then
        assertThatThrownBy(() -> sink.restore(Optional.of(new RestorePoint(1, snapshot.location(), 1))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("belongs to sink orders subtask 1, not to sink orders subtask 0");
        assertThat(kafka.initialisations).isZero();
    }

    @Test
    void shouldStopWithAClearErrorWhenANewerIncarnationFencedIt() throws IOException {
        // given
        var sink = started();
        send(sink, "a");
        sink.snapshot(1, location(1));
        kafka.fenceNextCommit = true;

        // when / then
        assertThatThrownBy(() -> sink.notifyComplete(1)).isInstanceOf(SinkFailedException.class)
                .matches(error -> ((SinkFailedException) error).fenced());
        assertThatThrownBy(() -> sink.send("b", "b")).isInstanceOf(SinkFailedException.class)
                .hasMessageContaining("fenced by a newer incarnation");
        assertThat(kafka.closed).isTrue();
        assertThat(kafka.output).isEmpty();
    }

    @Test
    void shouldResetTheMarkerOfAnEarlierRunOnAFreshStart() throws IOException {
        // given
        kafka.marker = OptionalLong.of(40);

        var sink = sink(0, kafka);

        // when
        RestorePlan plan = sink.restore(Optional.empty());

        // then
        assertThat(plan.verdict()).isEqualTo(Verdict.FRESH);
        assertThat(kafka.markers).containsExactly(-1L);
    }

    @Test
    void shouldRefuseToSendBeforeRestoring() {
        // given
        var sink = sink(0, kafka);

        // when / then
        assertThatThrownBy(() -> sink.send("a", "a")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("call restore first");
    }

    @Test
    void shouldRefuseAStorageLocationOfAnUnsupportedScheme() throws IOException {
        // given
        var sink = started();

        // when / then
        assertThatThrownBy(() -> sink.snapshot(1, "hdfs://namenode/chk-1")).isInstanceOf(IOException.class)
                .hasMessageContaining("hdfs://namenode/chk-1").hasMessageContaining("scheme hdfs")
                .hasMessageContaining("file: URIs, plain paths and s3://bucket/key locations");
    }

    @Test
    void shouldWriteItsSnapshotUnderAPlainPathToo() throws IOException {
        // given
        var sink = started();
        send(sink, "a");

        // when
        SinkSnapshot snapshot = sink.snapshot(1, dir.resolve("plain").toString());

        // then
        assertThat(SinkStateCodec.read(new FileStorage(), snapshot.location()).pending())
                .extracting(Epoch::records).containsExactly(records("a"));
        assertThat(snapshot.sizeBytes()).isPositive();
    }
}
