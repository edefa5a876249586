package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.auth.SigningKey;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests on {@code cairn.requests} in the default secured mode, where they must be signed with the requests key
 * derived from the master key: a signed one is taken in; an unsigned one, one signed with another key and one
 * altered after signing are dead-lettered with their reason and change nothing. With
 * {@code allow.unsigned.requests} unsigned ones are taken in too, but a signed one is still checked.
 */
class SignedRequestsTopologyTest {

    private static final String JOB = "orders";
    private static final String FORGED_TARGET = "file:///attacker/forged-savepoint";
    private static final SigningKey MASTER = SigningKey.generate();

    @TempDir
    Path stateDir;

    private CoordinatorDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void shouldTakeInARequestSignedWithTheRequestsKey() {
        driver = CoordinatorDriver.on(stateDir).signedWith(MASTER).start();

        driver.register(spec());

        assertThat(driver.deadLetters().isEmpty()).isTrue();
        assertThat(journal()).filteredOn(JobSpec.class::isInstance).hasSize(1);
        assertThat(driver.reader().job(JOB)).isPresent();
    }

    @Test
    void shouldDeadLetterAnUnsignedRequestWithItsReasonAndChangeNothing() {
        driver = CoordinatorDriver.on(stateDir).signedWith(MASTER).start();

        driver.unsignedRequests().pipeInput(JOB, new RequestEnvelope(spec()));

        TestRecord<byte[], byte[]> dead = driver.deadLetters().readRecord();
        assertThat(header(dead.headers(), DeadLetterQueueHandler.REASON)).isEqualTo("UNSIGNED");
        assertThat(header(dead.headers(), DeadLetterQueueHandler.MESSAGE)).contains(RecordSignatures.HEADER,
                "requests key", "allow.unsigned.requests=true");
        assertThat(header(dead.headers(), DeadLetterQueueHandler.SOURCE_TOPIC))
                .isEqualTo(CoordinatorDriver.TOPICS.requests());
        assertThat(dead.value()).isEqualTo(bytes(new RequestEnvelope(spec())));
        assertThat(journal()).isEmpty();
        assertThat(driver.reader().job(JOB)).isEmpty();
    }

    @Test
    void shouldDeadLetterARequestSignedWithAJobKeyOrAnotherMastersRequestsKey() {
        driver = CoordinatorDriver.on(stateDir).signedWith(MASTER).start();

        for (SigningKey wrong : List.of(MASTER.jobKey(JOB), MASTER, SigningKey.generate().requestsKey())) {
            pipeSigned(wrong, bytes(new RequestEnvelope(spec())));
        }

        assertThat(driver.deadLetters().readRecordsToList()).hasSize(3)
                .allSatisfy(dead -> assertThat(header(dead.headers(), DeadLetterQueueHandler.REASON))
                        .isEqualTo("BAD_SIGNATURE"));
        assertThat(journal()).isEmpty();
        assertThat(driver.reader().job(JOB)).isEmpty();
    }

    @Test
    void shouldDeadLetterASignedSavepointRequestWithAnyOneBitFlippedAndTakeNoSavepoint() {
        driver = CoordinatorDriver.on(stateDir).signedWith(MASTER).start();
        driver.register(spec());
        journal();
        byte[] value = bytes(savepointRequest("sp-1"));
        Headers signature = new RecordHeaders();
        RecordSignatures.sign(signature, MASTER.requestsKey(), value);

        for (int bit = 0; bit < value.length * 8; bit += 7) {
            byte[] flipped = value.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            driver.rawRequests().pipeInput(new TestRecord<>(JOB.getBytes(StandardCharsets.UTF_8), flipped, signature));
        }

        assertThat(driver.deadLetters().readRecordsToList()).hasSize((value.length * 8 + 6) / 7)
                .allSatisfy(dead -> assertThat(header(dead.headers(), DeadLetterQueueHandler.REASON))
                        .isEqualTo("BAD_SIGNATURE"));
        assertThat(journal()).as("no request was recorded, no savepoint triggered").isEmpty();
        assertThat(driver.control().isEmpty()).isTrue();
        assertThat(driver.reader().request(JOB, "sp-1")).isEmpty();
    }

    @Test
    void shouldDeadLetterASignedRequestKeyedByAnotherJobThanItNames() {
        driver = CoordinatorDriver.on(stateDir).signedWith(MASTER).start();

        driver.requests().pipeInput("another-job", new RequestEnvelope(spec()));

        TestRecord<byte[], byte[]> dead = driver.deadLetters().readRecord();
        assertThat(header(dead.headers(), DeadLetterQueueHandler.MESSAGE))
                .contains("differs from the job id 'orders'");
        assertThat(journal()).isEmpty();
    }

    @Test
    void shouldTakeInUnsignedRequestsButStillCheckSignedOnesWhenUnsignedRequestsAreAllowed() {
        driver = CoordinatorDriver.on(stateDir).signedWith(MASTER).allowUnsignedRequests().start();

        driver.unsignedRequests().pipeInput(JOB, new RequestEnvelope(spec()));
        pipeSigned(SigningKey.generate(), bytes(savepointRequest("sp-forged")));

        assertThat(journal()).filteredOn(JobSpec.class::isInstance).hasSize(1);
        assertThat(header(driver.deadLetters().readRecord().headers(), DeadLetterQueueHandler.REASON))
                .isEqualTo("BAD_SIGNATURE");
    }

    private void pipeSigned(SigningKey key, byte[] value) {
        Headers headers = new RecordHeaders();
        RecordSignatures.sign(headers, key, value);
        driver.rawRequests().pipeInput(new TestRecord<>(JOB.getBytes(StandardCharsets.UTF_8), value, headers));
    }

    private RequestEnvelope savepointRequest(String requestId) {
        return new RequestEnvelope(Events.triggerRequest(JOB, requestId).setType(CheckpointType.SAVEPOINT)
                .setTargetLocation(FORGED_TARGET).setTimestampMs(driver.now()).build());
    }

    private static JobSpec spec() {
        return CoordinatorDriver.spec(JOB, CoordinatorDriver.task("source", 1));
    }

    private static byte[] bytes(RequestEnvelope envelope) {
        return CairnSerdes.requests().serialize(CoordinatorDriver.TOPICS.requests(), envelope);
    }

    private List<Object> journal() {
        return driver.journal().readValuesToList().stream().map(JournalEnvelope::getEvent).toList();
    }

    private static String header(Headers headers, String name) {
        return headers.lastHeader(name) == null ? null
                : new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
