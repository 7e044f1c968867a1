from saturnd.daemon import main
import sys
sys.exit(main())
