package dev.cairn.kit.sink;

import static dev.cairn.kit.sink.Records.epoch;
import static dev.cairn.kit.sink.Records.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.kit.storage.FileStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SinkStateCodecTest {

    private final SinkState state = new SinkState("orders", 3, 9, List.of(
            new Epoch(7, List.of(record("k", "v"), record(null, "no key"), record("gone", null))),
            epoch(9, "x", "")));

    @TempDir
    Path dir;

    @Test
    void shouldRoundTripEpochsWithNullKeysTombstonesAndEmptyValues() throws IOException {
        // when
        SinkState decoded = SinkStateCodec.decode(SinkStateCodec.encode(state), "memory");

        // then
        assertThat(decoded).isEqualTo(state);
        assertThat(decoded.recordCount()).isEqualTo(5);
    }

    @Test
    void shouldRoundTripThroughAFileLeavingNoTemporaryFile() throws IOException {
        // given
        Path file = dir.resolve("chk-9").resolve("sink-orders-3.state");

        // when
        long size = SinkStateCodec.write(new FileStorage(), file.toString(), state);

        // then
        assertThat(SinkStateCodec.read(new FileStorage(), file.toUri().toString())).isEqualTo(state);
        assertThat(Files.size(file)).isEqualTo(size);
        try (var files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void shouldRoundTripAStateWithoutPendingEpochs() throws IOException {
        // given
        SinkState empty = new SinkState("orders", 0, 1, List.of());

        // when / then
        assertThat(SinkStateCodec.decode(SinkStateCodec.encode(empty), "memory")).isEqualTo(empty);
    }

    @Test
    void shouldRefuseEveryTruncationOfAFileWithAClearMessage() {
        // given
        byte[] bytes = SinkStateCodec.encode(state);

        // when / then
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> SinkStateCodec.decode(truncated, "chk-9/sink-orders-3.state"))
                    .as("cut after %d bytes", length)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("chk-9/sink-orders-3.state")
                    .hasMessageMatching("(?s).*(truncated|corrupt).*");
        }
    }

    @Test
    void shouldRefuseAFileWhoseBytesWereAltered() {
        // given
        byte[] bytes = SinkStateCodec.encode(state);
        bytes[10] ^= 0x01; // the first letter of the sink id

        // when / then
        assertThatThrownBy(() -> SinkStateCodec.decode(bytes, "altered"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("the sink state altered is corrupt: its checksum is");
    }

    @Test
    void shouldRefuseAFileOfAnotherFormat() {
        // given
        byte[] bytes = "just some text, not a state".getBytes(StandardCharsets.UTF_8);

        // when / then
        assertThatThrownBy(() -> SinkStateCodec.decode(bytes, "notes.txt"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("the file notes.txt is not a sink state");
    }

    @Test
    void shouldRefuseAnUnknownFormatVersion() {
        // given
        byte[] bytes = SinkStateCodec.encode(state);
        ByteBuffer.wrap(bytes).putShort(4, (short) 2);

        // when / then
        assertThatThrownBy(() -> SinkStateCodec.decode(bytes, "future"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("has format version 2, this kit reads version 1");
    }

    @Test
    void shouldRefuseBytesAfterTheChecksum() {
        // given
        byte[] bytes = SinkStateCodec.encode(state);
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 3);

        // when / then
        assertThatThrownBy(() -> SinkStateCodec.decode(longer, "longer"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("3 unexpected bytes after its checksum");
    }

    @Test
    void shouldRefuseAMissingFile() {
        // given
        Path missing = dir.resolve("nothing-here.state");

        // when / then
        assertThatThrownBy(() -> SinkStateCodec.read(new FileStorage(), missing.toString()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("does not exist");
    }
}
