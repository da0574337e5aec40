# optparse and getopt, which older training scripts use to read their command line.
import getopt
import optparse

parser = optparse.OptionParser(usage="%prog [options] data")
parser.add_option("-b", "--batch_size", type="int", default=32, help="batch size")
parser.add_option("--lr", type="float", dest="learning_rate", default=0.01)
parser.add_option("-v", action="store_true", dest="verbose", default=False)
opts, args = parser.parse_args(["-b", "64", "--lr=0.5", "-v", "data.txt"])
print(opts.batch_size, opts.learning_rate, opts.verbose, args)
opts, args = parser.parse_args([])
print(opts, args)
print(getopt.getopt(["-a", "-b", "val", "--long=x", "rest"], "ab:", ["long="]))
try:
    getopt.getopt(["-z"], "ab:")
except getopt.GetoptError as e:
    print("GetoptError:", e)
