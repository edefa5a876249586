package dev.cairn.kit.task;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A source's input as the tests write it (records {@code key-i}/{@code value-i} to one partition), and a source
 * function that writes each input record's origin, {@code partition:offset}, as its output's value, so that a test
 * can tell which input produced which output.
 */
final class InputRecords {

    /** Each input record's output: its key, and its origin {@code partition:offset} as the value. */
    static final SourceFunction ORIGIN = record -> List.of(new SourceFunction.Output(record.key(),
            (record.partition() + ":" + record.offset()).getBytes(StandardCharsets.UTF_8)));

    private InputRecords() {
    }

    /** Writes {@code count} records, {@code i} from 0, to {@code partition} of {@code topic}, and flushes. */
    static void produce(String bootstrapServers, String topic, int partition, int count) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, partition, "key-" + i, "value-" + i));
            }
            producer.flush();
        }
    }
}
