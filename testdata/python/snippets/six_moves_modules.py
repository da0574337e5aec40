# A 2018 data helper copied from keras: it downloads with six.moves.urllib
# and parses configs with six.moves.configparser (not run: no network).
from __future__ import print_function

import six
from six.moves.urllib.error import HTTPError, URLError
from six.moves.urllib.parse import urljoin, urlparse
from six.moves.urllib.request import urlopen, urlretrieve
from six.moves import configparser, cPickle, range, zip

print(HTTPError.__name__, URLError.__name__, urlopen.__name__, urlretrieve.__name__)
print(urljoin("http://paddlepaddle.org/dataset/", "uci_housing/housing.data"))
print(urlparse("http://a.org:80/x?y=1").netloc, six.moves.urllib.parse.quote("a b/c"))
print(six.moves.urllib_parse.unquote("a%20b"), six.moves.http_client.OK)
parser = configparser.ConfigParser()
parser.read_string(u"[train]\nlr = 0.01\npasses = 3\n")
print(parser.getfloat("train", "lr"), parser.getint("train", "passes"))
print(list(zip(range(3), "abc")), cPickle.loads(cPickle.dumps({"k": 1})))
try:
    from six.moves.urllib.request import no_such_function  # noqa: F401
except ImportError as e:
    print(type(e).__name__)
