package dev.ourios.compaction.audit;

import dev.ourios.parquet.LogFormatException;
import dev.ourios.parquet.read.PageDecompressors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;

/**
 * Reads one audit file whole, with the checks every file the store reads gets (STORAGE.md §7.1): the codecs of its
 * pages are ones the reader decodes (any writer's file, not only ours), its columns fit the audit schema by name
 * ({@link AuditSchemaCheck}), every event names the day's tenant, and the rows read are the rows its footer
 * declares. The rows come back in the file's own schema, every column kept. Every failure is one
 * {@link LogFormatException} naming the file.
 */
final class AuditFileReader {
    private AuditFileReader() {
    }

    /** The events of the local copy {@code local} of the audit file {@code name} of {@code tenant}'s series. */
    static AuditFile read(Path local, String name, String tenant) throws IOException {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(new PageDecompressors()).build();
        ParquetFileReader reader;
        try {
            reader = ParquetFileReader.open(new LocalInputFile(local), options);
        } catch (IOException | RuntimeException e) {
            throw new LogFormatException(name + ": not a readable Parquet file (" + LogFormatException.reason(e) + ")", e);
        } catch (StackOverflowError e) {
            // parquet-java builds the schema from the footer recursively; the stack is unwound here.
            throw new LogFormatException(name + ": not a readable Parquet file (its schema is nested deeper than"
                    + " this reader's stack)");
        }
        try (reader) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            AuditSchemaCheck.check(schema, name);
            List<BlockMetaData> blocks = reader.getFooter().getBlocks();
            PageDecompressors.checkReadable(name, blocks);
            long declared = blocks.stream().mapToLong(BlockMetaData::getRowCount).sum();
            List<Group> rows = new ArrayList<>();
            int group = 0;
            try {
                PageReadStore pages;
                while ((pages = reader.readNextRowGroup()) != null) {
                    RecordReader<Group> rr = new ColumnIOFactory().getColumnIO(schema)
                            .getRecordReader(pages, new GroupRecordConverter(schema));
                    for (long i = 0; i < pages.getRowCount(); i++) {
                        rows.add(rr.read());
                    }
                    group++;
                }
            } catch (IOException | RuntimeException e) {
                throw new LogFormatException(name + ": cannot read row group " + group + " (" + LogFormatException.reason(e)
                        + ")", e);
            }
            if (rows.size() != declared) {
                throw new LogFormatException(name + ": " + rows.size() + " events read, its footer declares "
                        + declared);
            }
            for (int i = 0; i < rows.size(); i++) {
                checkEvent(rows.get(i), i, name, tenant);
            }
            return new AuditFile(name, schema, rows);
        }
    }

    private static void checkEvent(Group event, int index, String name, String tenant) throws LogFormatException {
        for (String column : AuditSchemaCheck.REQUIRED) {
            if (event.getFieldRepetitionCount(column) == 0) {
                throw new LogFormatException(name + ": event " + index + " has no " + column);
            }
        }
        String owner = event.getString("tenant_id", 0);
        if (!owner.equals(tenant)) {
            throw new LogFormatException(name + ": event " + index + " belongs to tenant '" + owner
                    + "', not to the series' tenant '" + tenant + "'");
        }
    }
}
