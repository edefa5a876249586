package dev.cairn.kit.task;

import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** A source's input as the tests write it: records {@code key-i}/{@code value-i} to one partition. */
final class InputRecords {

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
