package dev.ourios.parquet.read;

import java.lang.reflect.Constructor;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.hadoop.metadata.ColumnPath;

/**
 * filter2 column references for top-level columns, by exact name. {@code FilterApi.binaryColumn("a.b")} splits the
 * name on dots and so can never address a column literally named {@code resource.service.name} or
 * {@code attr.http.route}; the column classes' constructors taking a {@link ColumnPath} are package-private, so
 * they are called reflectively (on the classpath, parquet is in the unnamed module, so this is permitted). Names
 * without dots use the public API.
 */
public final class FilterColumns {
    private FilterColumns() {
    }

    public static Operators.BinaryColumn binary(String column) {
        return column.contains(".") ? create(Operators.BinaryColumn.class, column) : FilterApi.binaryColumn(column);
    }

    public static Operators.LongColumn int64(String column) {
        return column.contains(".") ? create(Operators.LongColumn.class, column) : FilterApi.longColumn(column);
    }

    public static Operators.IntColumn int32(String column) {
        return column.contains(".") ? create(Operators.IntColumn.class, column) : FilterApi.intColumn(column);
    }

    public static Operators.DoubleColumn float64(String column) {
        return column.contains(".") ? create(Operators.DoubleColumn.class, column) : FilterApi.doubleColumn(column);
    }

    private static <T> T create(Class<T> type, String column) {
        try {
            Constructor<T> c = type.getDeclaredConstructor(ColumnPath.class);
            c.setAccessible(true);
            return c.newInstance(ColumnPath.get(column));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot build a filter column for '" + column + "' with this parquet "
                    + "version", e);
        }
    }
}
