package dev.cairn.kit.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.kit.state.StateFile;
import dev.cairn.kit.storage.FileStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceStateCodecTest {

    private final SourceState state = new SourceState("orders-src", 1, 7, 1_700_000_000_123L, "orders",
            Map.of(1, 42L, 3, 0L, 5, 9_000_000_000L));

    @TempDir
    Path dir;

    @Test
    void shouldRoundTripPositionsAndGeneration() throws IOException {
        // when
        SourceState decoded = SourceStateCodec.decode(SourceStateCodec.encode(state), "memory");

        // then
        assertThat(decoded).isEqualTo(state);
        assertThat(decoded.positions()).containsExactlyInAnyOrderEntriesOf(Map.of(1, 42L, 3, 0L, 5, 9_000_000_000L));
    }

    @Test
    void shouldRoundTripAFreshStartStateWithoutPartitions() throws IOException {
        // given
        SourceState empty = new SourceState("s", 0, 1, -1, "in", Map.of());

        // when / then
        assertThat(SourceStateCodec.decode(SourceStateCodec.encode(empty), "memory")).isEqualTo(empty);
    }

    @Test
    void shouldRoundTripTheEndOfADrainedInput() throws IOException {
        // given the state a stop with drain took
        SourceState drained = new SourceState("orders-src", 1, 7, 3, "orders", Map.of(1, 42L), true);

        // when
        SourceState decoded = SourceStateCodec.decode(SourceStateCodec.encode(drained), "memory");

        // then
        assertThat(decoded.ended()).isTrue();
        assertThat(decoded).isEqualTo(drained);
    }

    @Test
    void shouldReadAStateOfTheVersionBeforeTheEndedFlagAsNotEnded() throws IOException {
        // given a version 1 file: the same content without the ended byte
        byte[] bytes = new StateFile("source state", SourceStateCodec.MAGIC, (short) 1).encode(out -> {
            byte[] task = "orders-src".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.writeInt(task.length);
            out.write(task);
            out.writeInt(1);
            out.writeLong(7);
            out.writeLong(3);
            byte[] topic = "orders".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.writeInt(topic.length);
            out.write(topic);
            out.writeInt(1);
            out.writeInt(1);
            out.writeLong(42);
        });

        // when
        SourceState decoded = SourceStateCodec.decode(bytes, "version-1");

        // then
        assertThat(decoded).isEqualTo(new SourceState("orders-src", 1, 7, 3, "orders", Map.of(1, 42L)));
        assertThat(decoded.ended()).isFalse();
    }

    @Test
    void shouldRefuseAnEndedFlagThatIsNeitherZeroNorOne() {
        // given a state whose ended byte (the last before the checksum) is 7, with a checksum that matches
        byte[] flagged = SourceStateCodec.encode(state);
        flagged[flagged.length - 9] = 7;

        // when / then
        assertThatThrownBy(() -> SourceStateCodec.decode(withChecksum(flagged), "flagged"))
                .isInstanceOf(IOException.class).hasMessageContaining("ended flag is 7");
    }

    private static byte[] withChecksum(byte[] bytes) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        ByteBuffer.wrap(bytes).putLong(bytes.length - 8, crc.getValue());
        return bytes;
    }

    @Test
    void shouldRoundTripThroughAFileLeavingNoTemporaryFile() throws IOException {
        // given
        Path file = dir.resolve("chk-7").resolve("source-orders-src-1.state");

        // when
        long size = SourceStateCodec.write(new FileStorage(), file.toString(), state);

        // then
        assertThat(SourceStateCodec.read(new FileStorage(), file.toUri().toString())).isEqualTo(state);
        assertThat(Files.size(file)).isEqualTo(size);
        try (var files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void shouldRefuseEveryTruncationOfAState() {
        // given
        byte[] bytes = SourceStateCodec.encode(state);

        // when / then every prefix is refused, none half-read
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> SourceStateCodec.decode(truncated, "cut"))
                    .as("a state cut to %d of %d bytes", length, bytes.length)
                    .isInstanceOf(IOException.class).hasMessageContaining("cut");
        }
    }

    @Test
    void shouldRefuseAStateWithAnAlteredPositionByItsChecksum() {
        // given the last position's lowest byte changed (just before the 8-byte checksum)
        byte[] bytes = SourceStateCodec.encode(state);
        bytes[bytes.length - 9] ^= 1;

        // when / then
        assertThatThrownBy(() -> SourceStateCodec.decode(bytes, "altered"))
                .isInstanceOf(IOException.class).hasMessageContaining("altered").hasMessageContaining("checksum");
    }

    @Test
    void shouldRefuseAStateOfAnotherFormatVersion() {
        // given
        byte[] bytes = SourceStateCodec.encode(state);
        ByteBuffer.wrap(bytes).putShort(4, (short) 3);

        // when / then
        assertThatThrownBy(() -> SourceStateCodec.decode(bytes, "future"))
                .isInstanceOf(IOException.class).hasMessageContaining("format version 3");
    }

    @Test
    void shouldRefuseAFileThatIsNotASourceState() {
        // given
        byte[] bytes = SourceStateCodec.encode(state);
        ByteBuffer.wrap(bytes).putInt(0, 0x43574153);

        // when / then
        assertThatThrownBy(() -> SourceStateCodec.decode(bytes, "a-sink-state"))
                .isInstanceOf(IOException.class).hasMessageContaining("not a source state");
    }

    @Test
    void shouldRefuseBytesAfterTheChecksum() {
        // given
        byte[] bytes = SourceStateCodec.encode(state);
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);

        // when / then
        assertThatThrownBy(() -> SourceStateCodec.decode(longer, "padded"))
                .isInstanceOf(IOException.class).hasMessageContaining("unexpected bytes");
    }

    @Test
    void shouldNameAMissingFile() {
        // given
        Path missing = dir.resolve("nothing.state");

        // when / then
        assertThatThrownBy(() -> SourceStateCodec.read(new FileStorage(), missing.toString()))
                .isInstanceOf(IOException.class).hasMessageContaining("does not exist");
    }

    @Test
    void shouldNameTheLocationAndItsKindWhenTheFileIsMissing() {
        // given
        String missing = dir.resolve("chk-3").resolve("source-orders-src-1.state").toUri().toString();

        // when / then
        assertThatThrownBy(() -> SourceStateCodec.read(new FileStorage(), missing))
                .isInstanceOf(IOException.class).hasMessage("the source state " + missing + " does not exist");
    }
}
