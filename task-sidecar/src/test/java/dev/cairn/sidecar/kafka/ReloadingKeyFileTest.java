package dev.cairn.sidecar.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cairn.auth.RecordSignatures;
import dev.cairn.auth.SigningKey;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.serde.SchemaSamples;
import dev.cairn.sidecar.app.SidecarConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A sidecar configured with {@code auth.key.file} picks up a new key written to that file without a restart: the next
 * record after the next look at the file (at most once a second) is signed with it. A file that becomes unreadable or
 * holds garbage keeps the key read before, with one ERROR in the log, and no record ever goes unsigned.
 */
class ReloadingKeyFileTest {

    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final String TOPIC = "cairn.acks";

    @TempDir
    Path dir;

    private final SigningKey oldKey = SigningKey.generate().jobKey("orders");
    private final SigningKey newKey = SigningKey.generate().jobKey("orders");
    private final AckEnvelope ack = SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0);
    private final SettableClock clock = new SettableClock(Instant.parse("2030-01-01T00:00:00Z"));
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(ReloadingKeyFile.class);
    private Path file;
    private Serializer<AckEnvelope> serializer;

    /** A value and the headers a sidecar sent it with. */
    private record Sent(RecordHeaders headers, byte[] value) {

        String keyId() {
            return RecordSignatures.keyId(headers);
        }

        boolean signedWith(SigningKey key) {
            return key.id().equals(keyId()) && key.verifies(value, RecordSignatures.signature(headers));
        }
    }

    @BeforeEach
    void startWithTheOldKey() throws IOException {
        log.start();
        logger.addAppender(log);
        file = Files.writeString(dir.resolve("orders.key"), oldKey.toBase64() + "\n");
        serializer = AckSerializers.of(SidecarConfig.forTask("localhost:9092", "orders", "source", 0)
                .withAuthKeyFile(file).runtimeSettings(), clock, INTERVAL);
    }

    @AfterEach
    void detachLog() {
        logger.detachAppender(log);
    }

    @Test
    void shouldSignTheNextRecordWithTheNewKeyOnceTheFileIsReplaced() throws IOException {
        assertThat(send().signedWith(oldKey)).isTrue();

        replace(newKey.toBase64() + "\n");
        Sent beforeTheNextLook = send();
        clock.advance(INTERVAL);
        Sent afterIt = send();

        assertThat(beforeTheNextLook.signedWith(oldKey)).as("the file is looked at once a second at most").isTrue();
        assertThat(afterIt.signedWith(newKey)).as("signed with %s, key id %s", newKey.id(), afterIt.keyId()).isTrue();
        assertThat(messages(Level.INFO)).singleElement().asString()
                .contains("Read a new key from " + file, "key " + newKey.id(), "before: key " + oldKey.id());
        assertThat(messages(Level.ERROR)).isEmpty();
    }

    @Test
    void shouldKeepTheOldKeyAndLogOneErrorWhenGarbageIsWrittenToTheFile() throws IOException {
        replace("this is no key");
        List<Sent> sent = List.of(sendAfterTheInterval(), sendAfterTheInterval(), sendAfterTheInterval());

        assertThat(sent).allMatch(s -> s.signedWith(oldKey));
        assertThat(messages(Level.ERROR)).singleElement().asString()
                .contains("The key file " + file + " holds no valid key", "still signed with key " + oldKey.id());

        replace(newKey.toBase64());
        assertThat(sendAfterTheInterval().signedWith(newKey)).as("a valid key written later is taken").isTrue();
    }

    @Test
    void shouldKeepTheOldKeyAndLogOneErrorWhenTheFileCannotBeRead() throws IOException {
        Files.delete(file);
        List<Sent> sent = List.of(sendAfterTheInterval(), sendAfterTheInterval());

        assertThat(sent).allMatch(s -> s.signedWith(oldKey));
        assertThat(messages(Level.ERROR)).singleElement().asString()
                .contains("The key file " + file + " cannot be read", "still signed with key " + oldKey.id());
    }

    @Test
    void shouldNeitherLogNorChangeKeysWhileTheFileIsUnchanged() {
        List<Sent> sent = List.of(sendAfterTheInterval(), sendAfterTheInterval(), sendAfterTheInterval());

        assertThat(sent).allMatch(s -> s.signedWith(oldKey));
        assertThat(log.list).isEmpty();
    }

    private Sent send() {
        RecordHeaders headers = new RecordHeaders();
        return new Sent(headers, serializer.serialize(TOPIC, headers, ack));
    }

    private Sent sendAfterTheInterval() {
        clock.advance(INTERVAL);
        return send();
    }

    /** Writes {@code content} to a temporary file and renames it over the key file, as the documentation says. */
    private void replace(String content) throws IOException {
        Path written = Files.writeString(dir.resolve("orders.key.tmp"), content);
        Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private List<String> messages(Level level) {
        return log.list.stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
    }

    /** A clock a test moves. */
    private static final class SettableClock extends Clock {
        private Instant now;

        SettableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
