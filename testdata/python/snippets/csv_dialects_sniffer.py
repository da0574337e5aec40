# csv dialects: excel-tab, custom dialect registration, Sniffer detecting the delimiter and header, DictReader restkey/restval, QUOTE_ALL.
import csv
import io

csv.register_dialect("pipes", delimiter="|", quoting=csv.QUOTE_MINIMAL)
out = io.StringIO()
w = csv.writer(out, dialect="pipes")
w.writerow(["a|b", "c", 3])
print(repr(out.getvalue()), csv.list_dialects().count("pipes"))
sample = "name;age;city\nalice;30;paris\nbob;25;rome\n"
dialect = csv.Sniffer().sniff(sample)
print(dialect.delimiter, csv.Sniffer().has_header(sample))
for row in csv.DictReader(io.StringIO("a,b\n1,2,3\n4\n"), restkey="extra", restval="NA"):
    print(row)
q = io.StringIO()
csv.writer(q, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows([[1, "x"], [None, 2.5]])
print(repr(q.getvalue()))
print(list(csv.reader(io.StringIO("1\t2\n3\t4\n"), dialect="excel-tab")))
