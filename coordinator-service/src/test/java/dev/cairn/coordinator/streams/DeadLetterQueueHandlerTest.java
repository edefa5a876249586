package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownServerException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the handler answers Kafka Streams for a record it could not send, and what it dead-letters. */
class DeadLetterQueueHandlerTest {

    private static final String DLQ = "cairn.dlq";
    private final AtomicBoolean onStreamThread = new AtomicBoolean();
    private final DeadLetterQueueHandler handler = new DeadLetterQueueHandler(onStreamThread::get);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final UnsendableInputs unsendable = new UnsendableInputs();

    @BeforeEach
    void configure() {
        handler.configure(Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, DLQ,
                StreamsConfig.APPLICATION_ID_CONFIG, "dlq-handler-test", DeadLetterQueueHandler.METER_REGISTRY,
                registry, UnsendableInputs.CONFIG, unsendable));
    }

    @Test
    void shouldCountEachDeadLetterByStageAndReasonInTheGivenRegistry() {
        handler.handleSerializationError(context(), new ProducerRecord<>("cairn.control", utf8("job-1"), "x"),
                new SerializationException("cannot encode"),
                ProductionExceptionHandler.SerializationExceptionOrigin.VALUE);
        handler.handleError(context(), (Record<?, ?>) null,
                new CommandFailedException("OUTPUT_TOO_LARGE", "big", null));
        handler.handleError(context(), (Record<?, ?>) null,
                new CommandFailedException("OUTPUT_TOO_LARGE", "big", null));

        assertThat(registry.get(DeadLetterQueueHandler.DEAD_LETTERS)
                .tags("stage", "production", "reason", "SerializationException").counter().count()).isEqualTo(1.0);
        assertThat(registry.get(DeadLetterQueueHandler.DEAD_LETTERS)
                .tags("stage", "processing", "reason", "OUTPUT_TOO_LARGE").counter().count()).isEqualTo(2.0);
    }

    @Test
    void shouldLabelAReasonThatIsNoPlainIdentifierAsOtherSoThatLabelsStayBounded() {
        handler.handleError(context(), (Record<?, ?>) null,
                new CommandFailedException("job 'x' said: " + "y".repeat(100), "odd", null));

        assertThat(registry.get(DeadLetterQueueHandler.DEAD_LETTERS).tags("reason", "other").counter().count())
                .isEqualTo(1.0);
    }

    @Test
    void shouldRefuseARegistryPropertyThatIsNoMeterRegistry() {
        DeadLetterQueueHandler misconfigured = new DeadLetterQueueHandler();

        assertThatThrownBy(() -> misconfigured.configure(Map.of(
                StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, DLQ,
                DeadLetterQueueHandler.METER_REGISTRY, "prometheus")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cairn.metrics.registry must be a Micrometer MeterRegistry, not a java.lang.String");
    }

    @Test
    void shouldFailTheTaskAndMarkTheInputWhenTheSendOfItsDecisionIsRefused() {
        onStreamThread.set(true);
        ProducerRecord<byte[], byte[]> tooLarge = new ProducerRecord<>("cairn.control", utf8("job-1"),
                new byte[2_000_000]);

        ProductionExceptionHandler.Response response = handler.handleError(context(), tooLarge,
                new RecordTooLargeException("the message is 2000088 bytes"));

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
        assertThat(unsendable.take(input("cairn.acks", 2, 42))).hasValue(
                "RecordTooLargeException sending to cairn.control: the message is 2000088 bytes");
        assertThat(unsendable.take(input("cairn.acks", 2, 42))).as("a mark is taken once").isEmpty();
    }

    @Test
    void shouldFailTheTaskWithoutMarkingTheInputWhenTheBrokerFailsForAnotherReason() {
        onStreamThread.set(true);

        ProductionExceptionHandler.Response response = handler.handleError(context(),
                new ProducerRecord<>("cairn.journal", utf8("job-1"), utf8("x")),
                new UnknownServerException("the broker had a bad moment"));

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.FAIL);
        assertThat(unsendable.marked()).as("a record that may be sent on the next attempt is never skipped").isZero();
    }

    @Test
    void shouldFailTheTaskWithoutMarkingAnInputWhenTheProducerThreadReportsTheRefusal() {
        ProductionExceptionHandler.Response response = handler.handleError(context(),
                new ProducerRecord<>("cairn.control", utf8("job-1"), new byte[10]), new RecordTooLargeException("big"));

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.FAIL);
        assertThat(unsendable.marked()).isZero();
    }

    @Test
    void shouldDeadLetterARecordOfATimerTickThatCannotBeSerializedWithoutItsValueAndResume() {
        ProductionExceptionHandler.Response response = handler.handleSerializationError(context(),
                new ProducerRecord<>("cairn.control", utf8("job-1"), "x"), new SerializationException("cannot encode"),
                ProductionExceptionHandler.SerializationExceptionOrigin.VALUE);

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
        ProducerRecord<byte[], byte[]> dead = response.deadLetterQueueRecords().get(0);
        assertThat(dead.topic()).isEqualTo(DLQ);
        assertThat(dead.value()).isNull();
        assertThat(dead.key()).isEqualTo(utf8("job-1"));
        assertThat(dead.timestamp()).isNull();
        assertThat(header(dead.headers(), DeadLetterQueueHandler.STAGE)).isEqualTo("production");
        assertThat(header(dead.headers(), DeadLetterQueueHandler.DESTINATION_TOPIC)).isEqualTo("cairn.control");
        assertThat(header(dead.headers(), DeadLetterQueueHandler.REASON)).isEqualTo("SerializationException");
    }

    @Test
    void shouldMarkTheInputWhenTheDecisionOfARecordCannotBeSerialized() {
        onStreamThread.set(true);

        ProductionExceptionHandler.Response response = handler.handleSerializationError(context(),
                new ProducerRecord<>("cairn.completed", utf8("job-1"), "x"),
                new SerializationException("cannot encode"),
                ProductionExceptionHandler.SerializationExceptionOrigin.VALUE);

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.FAIL);
        assertThat(unsendable.take(input("cairn.acks", 2, 42))).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("SerializationException sending to cairn.completed"));
    }

    @Test
    void shouldFailTheTaskInsteadOfDeadLetteringTheRecordWhenProcessingBrokeTheTask() {
        ProcessingExceptionHandler.Response response = handler.handleError(context(), (Record<?, ?>) null,
                new StreamsException("Error encountered trying to send record to topic cairn.journal"));

        assertThat(response.result()).isEqualTo(ProcessingExceptionHandler.Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void shouldCutDeadLettersToFitTheProducersMaximumRequestSize() {
        DeadLetterQueueHandler small = new DeadLetterQueueHandler(() -> true);
        small.configure(Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, DLQ,
                DeadLetterQueueHandler.METER_REGISTRY, registry, "producer.max.request.size", "16384"));
        byte[] value = new byte[20_000];

        ProcessingExceptionHandler.Response response = small.handleError(context(value), (Record<?, ?>) null,
                new CommandFailedException("OUTPUT_UNSENDABLE", "m".repeat(5_000), null));

        ProducerRecord<byte[], byte[]> dead = response.deadLetterQueueRecords().get(0);
        assertThat(dead.value()).hasSize(8_192);
        assertThat(header(dead.headers(), DeadLetterQueueHandler.TRUNCATED_FROM)).isEqualTo("20000");
        assertThat(header(dead.headers(), DeadLetterQueueHandler.MESSAGE)).startsWith("m".repeat(1_024) + "... (5000");
    }

    @Test
    void shouldDropADeadLetterThatCannotBeSentInsteadOfLooping() {
        ProducerRecord<byte[], byte[]> letter = new ProducerRecord<>(DLQ, utf8("job-1"), utf8("x"));

        ProductionExceptionHandler.Response response = handler.handleError(context(), letter,
                new RecordTooLargeException("too large"));

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void shouldFailOnOtherSendErrorsAsKafkaStreamsWouldByDefault() {
        ProductionExceptionHandler.Response response = handler.handleError(context(),
                new ProducerRecord<>("cairn.journal", utf8("job-1"), utf8("x")), new TimeoutException("no broker"));

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.FAIL);
    }

    @Test
    void shouldCutAHugeInputValueSoThatItsDeadLetterCanBeSent() {
        byte[] huge = new byte[900 * 1024];
        ErrorHandlerContext context = context(huge);

        ProcessingExceptionHandler.Response response = handler.handleError(context, (Record<?, ?>) null,
                new CommandFailedException("OUTPUT_TOO_LARGE", "too large to send", null));

        ProducerRecord<byte[], byte[]> dead = response.deadLetterQueueRecords().get(0);
        assertThat(dead.value()).hasSize(DeadLetterQueueHandler.MAX_VALUE_BYTES);
        assertThat(header(dead.headers(), DeadLetterQueueHandler.TRUNCATED_FROM))
                .isEqualTo(Integer.toString(huge.length));
        assertThat(header(dead.headers(), DeadLetterQueueHandler.REASON)).isEqualTo("OUTPUT_TOO_LARGE");
    }

    /** The position of an input record, as Kafka Streams tells a processor. */
    private static RecordMetadata input(String topic, int partition, long offset) {
        return new RecordMetadata() {
            @Override
            public String topic() {
                return topic;
            }

            @Override
            public int partition() {
                return partition;
            }

            @Override
            public long offset() {
                return offset;
            }
        };
    }

    private static ErrorHandlerContext context() {
        return context(null);
    }

    private static ErrorHandlerContext context(byte[] rawValue) {
        return new ErrorHandlerContext() {
            @Override
            public String topic() {
                return "cairn.acks";
            }

            @Override
            public int partition() {
                return 2;
            }

            @Override
            public long offset() {
                return 42;
            }

            @Override
            public Headers headers() {
                return new RecordHeaders();
            }

            @Override
            public String processorNodeId() {
                return "coordinator";
            }

            @Override
            public TaskId taskId() {
                return new TaskId(0, 2);
            }

            @Override
            public long timestamp() {
                return -1;
            }

            @Override
            public byte[] sourceRawKey() {
                return utf8("job-1");
            }

            @Override
            public byte[] sourceRawValue() {
                return rawValue;
            }
        };
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String header(Headers headers, String name) {
        return new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
