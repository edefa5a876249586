package dev.cairn.kit.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.kit.sink.Epoch;
import dev.cairn.kit.sink.SinkRecord;
import dev.cairn.kit.sink.SinkState;
import dev.cairn.kit.sink.SinkStateCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SnapshotStorage} does, whatever keeps the objects: the tests of each kind extend this with the
 * storage and a fresh directory-like location per test, and a way to damage an object behind the storage's back.
 */
abstract class SnapshotStorageContract {

    /** The storage under test. */
    abstract SnapshotStorage storage();

    /** A directory-like location of this storage with nothing under it yet, new for each test. */
    abstract String directory();

    /** Replaces the bytes of the object at {@code location} without going through the storage. */
    abstract void overwriteBehindTheStorage(String location, byte[] bytes) throws IOException;

    @Test
    void shouldReadBackTheBytesWhenWritten() throws IOException {
        // given
        String location = storage().resolve(directory(), "chk-1/counter");

        // when
        storage().write(location, bytes("42\n"));

        // then
        assertThat(storage().read(location)).isEqualTo(bytes("42\n"));
        assertThat(storage().size(location)).isEqualTo(3);
    }

    @Test
    void shouldReplaceTheObjectWhenWrittenAgain() throws IOException {
        // given
        String location = storage().resolve(directory(), "state");
        storage().write(location, bytes("first, and longer"));

        // when
        storage().write(location, bytes("second"));

        // then
        assertThat(storage().read(location)).isEqualTo(bytes("second"));
        assertThat(storage().list(directory())).containsExactly(location);
    }

    @Test
    void shouldSayTheLocationDoesNotExistWhenReadingAMissingObject() throws IOException {
        // given
        String missing = storage().resolve(directory(), "nothing-here");

        // when / then
        assertThatThrownBy(() -> storage().read(missing)).isInstanceOf(LocationNotFoundException.class)
                .hasMessage("the location " + missing + " does not exist");
        assertThatThrownBy(() -> storage().size(missing)).isInstanceOf(LocationNotFoundException.class);
    }

    @Test
    void shouldDeleteAnObjectAndAcceptDeletingItAgain() throws IOException {
        // given
        String location = storage().resolve(directory(), "chk-2/state");
        storage().write(location, bytes("x"));

        // when
        storage().delete(location);
        storage().delete(location);

        // then
        assertThat(storage().exists(location)).isFalse();
        assertThat(storage().list(directory())).isEmpty();
    }

    @Test
    void shouldTellWhetherAnObjectExists() throws IOException {
        // given
        String written = storage().resolve(directory(), "written");
        storage().write(written, bytes("x"));

        // when / then
        assertThat(storage().exists(written)).isTrue();
        assertThat(storage().exists(storage().resolve(directory(), "never-written"))).isFalse();
    }

    @Test
    void shouldListEveryObjectUnderALocationAtEveryDepthAndNothingBeside() throws IOException {
        // given
        String chk1 = storage().resolve(directory(), "chk-1");
        String a = storage().resolve(chk1, "a.state");
        String b = storage().resolve(chk1, "deeper/b.state");
        String beside = storage().resolve(directory(), "chk-10/c.state");
        for (String location : List.of(a, b, beside)) {
            storage().write(location, bytes("12345"));
        }

        // when
        List<String> underChk1 = storage().list(chk1);

        // then
        assertThat(underChk1).containsExactly(a, b);
        assertThat(storage().list(directory())).containsExactlyInAnyOrder(a, b, beside);
        assertThat(storage().totalBytes(chk1)).isEqualTo(10);
        assertThat(storage().list(storage().resolve(directory(), "chk-99"))).isEmpty();
        assertThat(storage().list(a)).as("nothing lies under an object").isEmpty();
    }

    @Test
    void shouldResolveANameInADirectoryAndFindTheDirectoryAgainAsItsParent() throws IOException {
        // given
        String chk = storage().resolve(directory(), "chk-3");

        // when
        String state = storage().resolve(chk, "operator-count-0.state");
        String nested = storage().resolve(chk + "/", "operator-count-0.state");

        // then
        assertThat(state).endsWith("/chk-3/operator-count-0.state").doesNotContain("chk-3//");
        assertThat(nested).isEqualTo(state);
        assertThat(storage().resolve(storage().parent(state), "sink-out-0.state"))
                .isEqualTo(storage().resolve(chk, "sink-out-0.state"));
    }

    @Test
    void shouldRefuseANameThatLeavesTheDirectory() {
        for (String name : List.of("", "/absolute", "../escape", "a/../../b", "a//b")) {
            assertThatThrownBy(() -> storage().resolve(directory(), name)).as("name \"%s\"", name)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void shouldFailTheCodecsChecksumNamingTheLocationWhenAStoredStateWasCorrupted() throws IOException {
        // given a sink state written through the storage, then one byte of it changed where it is kept
        String location = storage().resolve(directory(), "chk-4/sink-orders-0.state");
        SinkState state = new SinkState("orders", 0, 4, List.of(new Epoch(4, List.of(
                new SinkRecord(bytes("k"), bytes("v"))))));
        SinkStateCodec.write(storage(), location, state);
        byte[] corrupted = storage().read(location);
        corrupted[corrupted.length - 9] ^= 0x10;
        overwriteBehindTheStorage(location, corrupted);

        // when / then
        assertThatThrownBy(() -> SinkStateCodec.read(storage(), location)).isInstanceOf(IOException.class)
                .hasMessageContaining("the sink state " + location + " is corrupt: its checksum is");
    }

    @Test
    void shouldNameTheKindAndTheLocationWhenAStateIsMissing() throws IOException {
        // given
        String missing = storage().resolve(directory(), "chk-5/sink-orders-0.state");

        // when / then
        assertThatThrownBy(() -> SinkStateCodec.read(storage(), missing)).isInstanceOf(IOException.class)
                .hasMessage("the sink state " + missing + " does not exist");
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
