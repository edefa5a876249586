package dev.cairn.kit.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

import dev.cairn.kit.align.Channel;
import dev.cairn.kit.align.InputPositions;
import dev.cairn.kit.storage.FileStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An operator's state file written and read back, and what reading makes of damaged files. */
class OperatorStateCodecTest {

    private static final InputPositions POSITIONS = InputPositions.afterBarriers(Map.of(
            Channel.of("counts", 0, 0), 7L, Channel.of("counts", 0, 1), 9L, Channel.of("counts", 2, 0), 3L));

    @TempDir
    Path directory;

    @Test
    void shouldReadBackWhatItWrote() throws Exception {
        OperatorState state = state(Map.of(key("a"), bytes("1"), key("b"), bytes("22")));
        Path file = directory.resolve("operator-count-1.state");

        byte[] bytes = OperatorStateCodec.encode(state);
        new FileStorage().write(file.toString(), bytes);
        OperatorState read = OperatorStateCodec.read(new FileStorage(), file.toUri().toString());

        assertThat(bytes.length).isEqualTo(Files.size(file));
        assertThat(read.taskId()).isEqualTo("count");
        assertThat(read.subtask()).isEqualTo(1);
        assertThat(read.checkpointId()).isEqualTo(12);
        assertThat(read.generation()).isEqualTo(1_700_000_000_000L);
        assertThat(read.positions()).isEqualTo(POSITIONS);
        assertThat(read.entries()).hasSize(2);
        assertThat(new String(read.entries().get(key("b")), StandardCharsets.UTF_8)).isEqualTo("22");
    }

    @Test
    void shouldRefuseAFileWithAFlippedBit() throws Exception {
        byte[] bytes = OperatorStateCodec.encode(state(Map.of(key("a"), bytes("1"))));
        bytes[bytes.length / 2] ^= 0x10;

        assertThatIOException().isThrownBy(() -> OperatorStateCodec.decode(bytes, "chk-12/operator-count-1.state"))
                .withMessageContaining("chk-12/operator-count-1.state").withMessageContaining("is corrupt");
    }

    @Test
    void shouldRefuseATruncatedFile() {
        byte[] bytes = OperatorStateCodec.encode(state(Map.of(key("a"), bytes("1"))));
        byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 9);

        assertThatIOException().isThrownBy(() -> OperatorStateCodec.decode(truncated, "short.state"))
                .withMessageContaining("short.state");
    }

    @Test
    void shouldRefuseAnotherKindOfStateFile() {
        byte[] source = dev.cairn.kit.task.SourceStateCodec.encode(new dev.cairn.kit.task.SourceState("src", 0, 1, 1,
                "events", Map.of(0, 5L)));

        assertThatIOException().isThrownBy(() -> OperatorStateCodec.decode(source, "source.state"))
                .withMessageContaining("source.state");
    }

    private static OperatorState state(Map<KeyedState.Key, byte[]> entries) {
        return new OperatorState("count", 1, 12, 1_700_000_000_000L, "counts", POSITIONS, entries);
    }

    private static KeyedState.Key key(String text) {
        return new KeyedState.Key(bytes(text));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
